"""The Connect Four computer player: tactics, proven wins, estimates, arguments, threads.

The oracles here are independent of the player's bitboard code: immediate wins and
threats are found with the game's public ``play`` and ``has_four``, and exact scores
come from the benchmark files or from :class:`Solver`. Budgets are small (or generous
where the solver needs a moment) and nothing asserts on time.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from collections.abc import Callable

import pytest

from gamelib.connect4 import benchmark_positions, lookahead, pool
from gamelib.connect4 import player as c4player
from gamelib.connect4.bitboard import position_of
from gamelib.connect4.forced import forced_move
from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.connect4.player import connect_four_move, connect_four_move_values
from gamelib.connect4.score import score_to_moves
from gamelib.connect4.solver import Solver
from gamelib.game import GameError
from gamelib.games import TicTacToe
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.depth_limited import (
    depth_limited,
    iterative_deepening,
    only_safe_move,
    proven_value,
)
from gamelib.search.stats import Decision, Stats

GENEROUS = 30.0  # an upper bound only: the solver proves these positions far sooner


# -- independent oracles ------------------------------------------------------------


def mover_index(state: C4State) -> int:
    return (state[0] | state[1]).bit_count() & 1


def winning_columns(game: ConnectFour, state: C4State) -> list[int]:
    """Columns where the player to move completes four at once."""
    me = mover_index(state)
    return [c for c in game.moves(state) if game.has_four(game.play(state, c)[me])]


def opponent_can_win_next(game: ConnectFour, state: C4State) -> bool:
    """After the last move: can the player to move in ``state`` win at once?"""
    return not game.finished(state) and bool(winning_columns(game, state))


def safe_columns(game: ConnectFour, state: C4State) -> list[int]:
    """Columns after which the opponent cannot complete four with their next disc."""
    return [
        c
        for c in game.moves(state)
        if game.finished(game.play(state, c))
        or not opponent_can_win_next(game, game.play(state, c))
    ]


def random_positions(
    game: ConnectFour, seed: int, count: int, wanted: Callable[[C4State], object]
) -> list[C4State]:
    """``count`` distinct unfinished positions from seeded random games passing ``wanted``."""
    rng = random.Random(seed)
    found: list[C4State] = []
    while len(found) < count:
        state = game.start
        for _ in range(rng.randrange(game.rows * game.cols)):
            moves = game.moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        if not game.finished(state) and state not in found and wanted(state):
            found.append(state)
    return found


def benchmark(name: str) -> list[tuple[str, int]]:
    return benchmark_positions(name)


def sample(
    name: str, count: int, seed: int, keep: Callable[[int], bool] = lambda score: True
) -> list[tuple[str, int]]:
    """``count`` lines of a benchmark file, drawn with ``seed`` among those whose score
    passes ``keep``."""
    rows = [row for row in benchmark(name) if keep(row[1])]
    return random.Random(seed).sample(rows, count)


def moves_to_win(moves: str, score: int) -> int:
    """The winner's discs still to drop for a 6x7 benchmark score (22 - k convention)."""
    discs = len(moves)
    winner_discs_now = discs // 2 if score > 0 else (discs + 1) // 2
    return (22 - abs(score)) - winner_discs_now


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def value_of(outcome: int, moves: int) -> float:
    """The value of a result proven for the player to move, on the course's one scale:
    a win with its ``moves``-th move ends 2 * moves - 1 plies from now, a loss to the
    opponent's ``moves``-th move 2 * moves plies from now."""
    if outcome == 0:
        return 0.0
    return proven_value(outcome, 2 * moves - 1 if outcome > 0 else 2 * moves)


def value_of_score(score: int, stones: int, game: ConnectFour | None = None) -> float:
    """The value of a solver score of a position (or of one of its columns, from the
    position's player to move) with ``stones`` discs on the board."""
    return value_of(sign(score), score_to_moves(score, stones, game) if score else 0)


Budget = dict[str, float]


def decide(game: ConnectFour, state: C4State, budget: Budget, seed: int) -> Decision:
    """connect_four_move with ``{"depth": d}`` or ``{"seconds": s}``."""
    depth = budget.get("depth")
    return connect_four_move(
        game,
        state,
        seconds=budget.get("seconds"),
        depth=None if depth is None else int(depth),
        rng=random.Random(seed),
    )


def column(decision: Decision) -> int:
    assert isinstance(decision.move, int)
    return decision.move


# -- tactics ------------------------------------------------------------------------


BOARDS = [ConnectFour(), ConnectFour(4, 4), ConnectFour(5, 6), ConnectFour(7, 5)]


@pytest.mark.parametrize("game", BOARDS, ids=repr)
@pytest.mark.parametrize("budget", [{"depth": 1}, {"seconds": 0.2}], ids=["depth1", "seconds"])
def test_never_misses_a_win_in_one(game: ConnectFour, budget: Budget) -> None:
    positions = random_positions(game, 11, 15, lambda s: winning_columns(game, s))
    for index, state in enumerate(positions):
        decision = decide(game, state, budget, index)
        assert decision.move in winning_columns(game, state)
        assert (decision.value, decision.exact) == (proven_value(1, 1), True)
        assert decision.summary == f"{game.to_move(state)} wins with this move"
        assert decision.move_values == {c: 1.5 for c in winning_columns(game, state)}


@pytest.mark.parametrize("game", BOARDS, ids=repr)
@pytest.mark.parametrize("budget", [{"depth": 1}, {"seconds": 0.05}], ids=["depth1", "seconds"])
def test_never_allows_a_win_in_one_it_could_prevent(
    game: ConnectFour, budget: Budget
) -> None:
    # Positions without a win on the move where some column hands the opponent a win:
    # a threat to block, or a cell right below an opponent's winning cell.
    def tense(state: C4State) -> bool:
        safe = safe_columns(game, state)
        return not winning_columns(game, state) and 0 < len(safe) < len(game.moves(state))

    positions = random_positions(game, 23, 8, tense)
    for index, state in enumerate(positions):
        decision = decide(game, state, budget, index)
        assert decision.move in safe_columns(game, state), game.render(state)
        for column in set(game.moves(state)) - set(safe_columns(game, state)):
            # proven: the opponent wins with the next ply but one
            assert decision.move_values[column] == proven_value(-1, 2)


def test_a_double_threat_is_a_proven_win_in_two() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("2636")  # X on 2 and 3; column 4 makes 1 and 5 threats
    # Three plies see it: X's move, O's block, X's four (Lesson 6's search has no
    # forced-block extension, so depth 1 sees only an estimate).
    budgets: list[Budget] = [{"depth": 3}, {"seconds": 5.0}]
    for budget, book in zip(budgets, ["", " (perfect: opening book)"], strict=True):
        decision = decide(game, state, budget, 0)
        assert decision.move == 3
        assert (decision.value, decision.exact) == (proven_value(1, 3), True)
        assert decision.summary == "X wins in at most 2 moves" + book  # the solver read it


def test_facing_a_double_threat_every_column_loses_in_one() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("137475")  # O on 3, 4, 5 with 2 and 6 open below
    budgets: list[Budget] = [{"depth": 1}, {"seconds": 0.2}]
    for budget in budgets:
        decision = decide(game, state, budget, 0)
        assert decision.move in game.moves(state)
        assert (decision.value, decision.exact) == (proven_value(-1, 2), True)
        assert decision.summary == "O wins in at most 1 move"
        assert decision.move_values == {c: proven_value(-1, 2) for c in range(7)}


# -- proven results with the solver ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "moves", "score"),
    [("L3_R1", *row) for row in sample("L3_R1", 8, 1, lambda s: s > 0)]
    + [("L2_R1", *row) for row in sample("L2_R1", 3, 2, lambda s: s > 0)],
)
def test_finds_the_fastest_proven_win(name: str, moves: str, score: int) -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves(moves)
    decision = connect_four_move(game, state, seconds=GENEROUS, rng=random.Random(3))
    scores = Solver(game).analyze(state)
    assert max(s for s in scores if s is not None) == score
    assert scores[column(decision)] == score
    mover = game.to_move(state)
    count = moves_to_win(moves, score)
    assert (decision.value, decision.exact) == (value_of(1, count), True)
    assert decision.summary == f"{mover} wins in at most {count} move{'s' * (count != 1)}"
    assert decision.move_values[decision.move] == decision.value
    assert set(decision.move_values) == set(game.moves(state))


@pytest.mark.parametrize(("moves", "score"), sample("L3_R1", 6, 4, lambda s: s <= 0))
def test_draws_and_losses_are_proven_and_resisted(moves: str, score: int) -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves(moves)
    decision = connect_four_move(game, state, seconds=GENEROUS, rng=random.Random(5))
    scores = Solver(game).analyze(state)
    assert scores[column(decision)] == score  # the slowest loss
    assert (decision.value, decision.exact) == (value_of_score(score, len(moves)), True)
    if score == 0:
        assert decision.summary == "draw with best play"
    else:
        winner = game.players[1 - mover_index(state)]
        count = moves_to_win(moves, score)
        assert decision.summary == f"{winner} wins in at most {count} move{'s' * (count != 1)}"


@pytest.mark.parametrize(("moves", "score"), sample("L3_R1", 5, 6))
def test_hint_values_are_the_exact_scores_on_the_one_scale(moves: str, score: int) -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves(moves)
    values = connect_four_move_values(game, state, seconds=GENEROUS)
    scores = Solver(game).analyze(state)
    stones = len(moves)
    assert values == {c: value_of_score(s, stones) for c, s in enumerate(scores) if s is not None}
    assert max(values.values()) == value_of_score(score, stones)


@pytest.mark.parametrize("size", [(5, 5), (5, 7), (4, 5), (6, 7)], ids=str)
def test_solver_scores_read_as_moves_on_odd_and_even_boards(size: tuple[int, int]) -> None:
    # A column that wins at once, and one that lets the opponent win at once, both end
    # the game with the winner's next disc: 1 move. Odd boards give the first player
    # one disc more, which is where the parity of the end matters.
    game = ConnectFour(*size)
    solver = Solver(game)
    checked = {1: 0, -1: 0}
    for state in random_positions(game, 31, 25, lambda s: winning_columns(game, s)):
        board = c4player._Position(game, position_of(game, state))
        score = solver.solve(state)  # the score of the win on the move
        assert score > 0
        assert board.winner_moves(score) == 1
        checked[1] += 1
        for col in set(game.moves(state)) - set(safe_columns(game, state)):
            child = game.play(state, col)
            if not game.finished(child):
                score = -solver.solve(child)
                assert score < 0
                assert board.winner_moves(score) == 1
                checked[-1] += 1
    assert checked[1] == 25 and checked[-1] >= 5


@pytest.mark.parametrize(
    ("rows", "cols", "best_columns"),
    [(4, 4, {0, 1, 2, 3}), (4, 5, {1, 2, 3})],  # the empty 4x5 board: its edges lose
)
def test_small_boards_from_the_start_are_draws(
    rows: int, cols: int, best_columns: set[int]
) -> None:
    game = ConnectFour(rows, cols)
    decision = connect_four_move(game, game.start, seconds=GENEROUS, rng=random.Random(0))
    assert decision.move in best_columns
    assert (decision.value, decision.exact) == (0.0, True)
    assert decision.summary == "draw with best play"


def test_hints_on_a_small_board_are_exact() -> None:
    game = ConnectFour(4, 5)
    values = connect_four_move_values(game, game.start, seconds=GENEROUS)
    scores = Solver(game).analyze(game.start)
    assert values == {c: value_of_score(s, 0, game) for c, s in enumerate(scores) if s is not None}
    assert values[1] == values[2] == values[3] == 0.0 and values[0] == values[4] < -1


def test_a_solved_position_without_a_proven_column_is_described_honestly() -> None:
    # When the deadline falls between solving the position and solving its columns,
    # the column comes from estimates. A lost position stays exactly lost (every
    # column loses); a won one is not claimed for a column that is not proven.
    game = ConnectFour()
    board = c4player._Position(
        game, position_of(game, ConnectFour.from_moves("45545544464551317"))
    )
    results = {
        col: c4player._Result(None, estimate=(col - 3) / 10) for col in game.moves(board.state)
    }
    evaluation = c4player._Evaluation(results, -2, False)
    lost = c4player._decide(board, evaluation, Stats(), random.Random(0))
    assert (lost.move, lost.value, lost.exact) == (6, value_of(-1, 11), True)
    assert lost.summary == "X wins in at most 11 moves (column chosen by estimate)"
    won = c4player._decide(board, evaluation._replace(root_score=2), Stats(), random.Random(0))
    assert (won.move, won.value, won.exact) == (6, 0.3, False)
    assert won.summary == "O wins in at most 12 moves (column chosen by estimate)"


# -- the heuristic player (depth) -------------------------------------------------------


def test_depth_gives_an_estimate_from_each_finished_depth() -> None:
    game = ConnectFour()
    decision = connect_four_move(game, game.start, depth=3, rng=random.Random(1))
    assert not decision.exact
    assert -1 < decision.value < 1
    assert decision.stats.depth == 3
    assert sorted(decision.stats.nodes_per_depth) == [1, 2, 3]
    assert sum(decision.stats.nodes_per_depth.values()) == decision.stats.calls
    assert set(decision.move_values) == set(range(7))
    assert all(-1 < value < 1 for value in decision.move_values.values())
    assert decision.value == max(decision.move_values.values())
    assert decision.summary == f"estimate {decision.value:+.2f} for X (depth 3)"


def test_depth_play_is_reproducible_and_symmetric() -> None:
    game = ConnectFour()
    first = connect_four_move(game, game.start, depth=4, rng=random.Random(7))
    again = connect_four_move(game, game.start, depth=4, rng=random.Random(7))
    assert (first.move, first.value) == (again.move, again.value)
    assert first.stats.calls == again.stats.calls
    assert first.stats.nodes_per_depth == again.stats.nodes_per_depth
    values = first.move_values
    assert all(values[col] == values[6 - col] for col in range(7))  # the board's mirror
    assert values[3] > values[0]  # the centre is worth more than the edge
    deeper = connect_four_move(game, game.start, depth=6, rng=random.Random(7))
    assert deeper.move == 3 and deeper.move_values[3] == max(deeper.move_values.values())


@pytest.mark.parametrize(("moves", "depth"), [("", 5), ("4453", 4), ("44444362", 4)])
def test_layer_three_is_the_lessons_search_with_the_lessons_heuristic(
    moves: str, depth: int
) -> None:
    # With ``depth`` the player skips the solver: after its tactics, its values are
    # those of Lesson 6's iterative deepening with Lesson 7's heuristic and forced lines
    # extended (its threat-based test agrees with the rules-based only_safe_move),
    # column by column.
    game = ConnectFour()
    state = ConnectFour.from_moves(moves)
    decision = connect_four_move(game, state, depth=depth, rng=random.Random(7))
    lessons = iterative_deepening(game, state, connect_four_heuristic(game), max_depth=depth,
                                  forced=only_safe_move(game))
    allowed = safe_columns(game, state)
    assert allowed and set(allowed) <= set(decision.move_values)
    assert {col: decision.move_values[col] for col in allowed} == {
        col: lessons.move_values[col] for col in allowed
    }
    assert decision.stats.depth == lessons.stats.depth == depth


def test_a_tiny_budget_leaves_the_columns_to_the_lessons_search() -> None:
    # 0.02 s is far too little for the solver on the empty board: the values are the
    # lessons' search's, to the depth that it finished.
    game = ConnectFour()
    decision = connect_four_move(game, game.start, seconds=0.02, rng=random.Random(7))
    assert not decision.exact and decision.stats.depth >= 1
    lessons = iterative_deepening(game, game.start, connect_four_heuristic(game),
                                  max_depth=decision.stats.depth, forced=only_safe_move(game))
    assert decision.move_values == lessons.move_values


def test_depth_search_counts_and_values_are_pinned() -> None:
    # Clock-free play is exactly reproducible: these counts change only when the
    # search, its move order or the heuristic does. (Left to right below the root, as
    # the lessons' search tries the moves, the same values cost 7, 56, 164, 858, 2179.)
    game = ConnectFour()
    decision = connect_four_move(game, game.start, depth=5, rng=random.Random(7))
    assert decision.stats.nodes_per_depth == {1: 7, 2: 56, 3: 147, 4: 532, 5: 1366}
    assert decision.stats.calls == 2108
    assert decision.move in (2, 3, 4)
    assert decision.move_values == {
        0: 0.0, 1: 1 / 17, 2: 3 / 19, 3: 3 / 19, 4: 3 / 19, 5: 1 / 17, 6: 0.0,
    }


def test_depth_and_seconds_together_stop_at_whichever_comes_first() -> None:
    game = ConnectFour()
    deep = connect_four_move(game, game.start, depth=2, seconds=30.0, rng=random.Random(0))
    assert deep.stats.depth == 2 and not deep.exact  # the depth came first
    quick = connect_four_move(game, game.start, depth=40, seconds=0.05, rng=random.Random(0))
    assert 1 <= quick.stats.depth < 40 and not quick.exact  # the clock came first
    assert quick.move in range(7)


def test_depth_values_do_not_depend_on_the_random_tie_breaks() -> None:
    # The tie-breaks reorder the columns of equal distance from the centre, which
    # changes what the search prunes, but not the value of any column.
    game = ConnectFour()
    state = ConnectFour.from_moves("4453")
    values = connect_four_move_values(game, state, depth=3)
    assert connect_four_move_values(game, state, depth=3) == values
    for seed in range(4):
        decision = connect_four_move(game, state, depth=3, rng=random.Random(seed))
        assert decision.move_values == values
        assert decision.value == max(values.values()) == values[column(decision)]


def test_a_short_budget_still_returns_a_legal_move_of_a_finished_depth() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("44")
    decision = connect_four_move(game, state, seconds=0.01, rng=random.Random(0))
    assert decision.move in game.moves(state)
    assert decision.stats.depth >= 1
    assert set(decision.move_values) == set(game.moves(state))


# -- arguments and threads -------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seconds": 0}, "seconds must be a positive number"),
        ({"seconds": -1.0}, "seconds must be a positive number"),
        ({"seconds": float("nan")}, "seconds must be a positive number"),
        ({"seconds": float("inf")}, "seconds must be a positive number"),
        ({"seconds": True}, "seconds must be a positive number"),
        ({"seconds": "1"}, "seconds must be a positive number"),
        ({"depth": 0}, "depth must be a whole number"),
        ({"depth": -2}, "depth must be a whole number"),
        ({"depth": 2.0}, "depth must be a whole number"),
        ({"depth": True}, "depth must be a whole number"),
        ({"rng": 42}, "rng must be a random.Random"),
    ],
)
def test_bad_arguments_raise_game_error(kwargs: dict[str, object], message: str) -> None:
    game = ConnectFour()
    with pytest.raises(GameError, match=message):
        connect_four_move(game, game.start, **kwargs)  # type: ignore[arg-type]
    if "rng" not in kwargs:
        with pytest.raises(GameError, match=message):
            connect_four_move_values(game, game.start, **kwargs)  # type: ignore[arg-type]


def test_bad_games_and_states_raise_game_error() -> None:
    game = ConnectFour()
    with pytest.raises(GameError, match="expected a ConnectFour"):
        connect_four_move(TicTacToe(), TicTacToe().start, depth=1)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="expected a ConnectFour"):
        connect_four_move_values(TicTacToe(), TicTacToe().start, depth=1)  # type: ignore[arg-type]
    won = ConnectFour.from_moves("1212121")
    with pytest.raises(GameError, match=r"already over \(X has four in a row\)"):
        connect_four_move(game, won, depth=1)
    with pytest.raises(GameError, match="already over"):
        connect_four_move_values(game, won, depth=1)
    small = ConnectFour(4, 4)
    draw = ConnectFour.from_moves("2234114322434311", 4, 4)
    with pytest.raises(GameError, match=r"already over \(the board is full\)"):
        connect_four_move(small, draw, depth=1)
    with pytest.raises(GameError):
        connect_four_move(game, (1, 1), depth=1)  # a cell with both colours
    with pytest.raises(GameError):
        connect_four_move(game, "4453", depth=1)  # type: ignore[arg-type]


def test_threads_get_their_own_solvers_and_right_answers() -> None:
    game = ConnectFour()
    rows = sample("L3_R1", 6, 8, lambda s: s != 0)
    answers: dict[int, tuple[int, float]] = {}
    errors: list[BaseException] = []

    def play(index: int, moves: str) -> None:
        try:
            state = ConnectFour.from_moves(moves)
            decision = connect_four_move(game, state, seconds=GENEROUS, rng=random.Random(index))
            answers[index] = (column(decision), decision.value)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(i, m)) for i, (m, _) in enumerate(rows)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    solver = Solver(game)
    for index, (moves, score) in enumerate(rows):
        move, value = answers[index]
        assert solver.analyze(ConnectFour.from_moves(moves))[move] == score
        assert value == value_of_score(score, len(moves))


def test_the_solver_pool_stays_small() -> None:
    for rows, cols in [(4, 4), (4, 5), (5, 4), (6, 7)]:
        game = ConnectFour(rows, cols)
        state = game.play(game.play(game.start, 0), 0)
        connect_four_move(game, state, seconds=0.02, rng=random.Random(0))
    assert len(pool._pool) <= 2
    assert all(len(idle) <= 1 for idle in pool._pool.values())


def test_importing_the_player_and_the_command_line_loads_no_user_interface() -> None:
    code = (
        "import sys, gamelib.connect4.player, gamelib.connect_four\n"
        "ui = {'ipycanvas', 'ipywidgets', 'matplotlib', 'IPython'}\n"
        "print(sorted(ui & {name.split('.')[0] for name in sys.modules}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert (result.returncode, result.stdout) == (0, "[]\n")


def test_the_players_forced_test_agrees_with_the_rules() -> None:
    # The player extends forced lines (a win at once, or the only column that does not
    # lose at once) with a test built on threats; on every position of random games it
    # names the same column as only_safe_move, built on the rules alone.
    game, rng = ConnectFour(), random.Random(5)
    by_threats, by_rules = forced_move(game.rows, game.cols), only_safe_move(game)
    forced_positions = 0
    for _ in range(40):
        state = game.start
        while not game.finished(state):
            assert by_threats(state) == by_rules(state)
            forced_positions += by_rules(state) is not None
            state = game.play(state, rng.choice(game.moves(state)))
    assert forced_positions > 50


@pytest.mark.parametrize(("moves", "plain", "extended"), [("11223", 33, 44), ("4455", 37, 53)])
def test_forced_lines_cost_these_nodes(moves: str, plain: int, extended: int) -> None:
    # Depth 2 with and without the extension: "11223" makes O block at 4 at once,
    # "4455" lets X make two threats on the bottom row. The counts change only when
    # the search, the heuristic or the forced test does.
    game = ConnectFour()
    h, state = connect_four_heuristic(game), ConnectFour.from_moves(moves)
    counts = []
    for forced in (None, forced_move(game.rows, game.cols)):
        stats = Stats()
        depth_limited(game, state, 2, h, stats=stats, forced=forced)
        counts.append(stats.calls)
    assert counts == [plain, extended]


def test_the_search_rules_agree_with_the_game() -> None:
    # The heuristic search plays on the rules without per-call checks; on every
    # position of random games of three board sizes they answer as ConnectFour does.
    for rows, cols in ((6, 7), (4, 5), (7, 9)):
        game, rules = ConnectFour(rows, cols), lookahead.search_rules(rows, cols)
        rng = random.Random(3)
        for _ in range(30):
            state = game.start
            while True:
                assert rules.finished(state) == game.finished(state)
                if game.finished(state):
                    for player in game.players:
                        assert rules.utility(state, player) == game.utility(state, player)
                    break
                assert rules.to_move(state) == game.to_move(state)
                assert rules.moves(state) == game.moves(state)
                for col in game.moves(state):
                    assert rules.play(state, col) == game.play(state, col)
                order = rules.centre_first(rules, state, list(game.moves(state)))
                assert sorted(order) == game.moves(state)
                assert [abs(2 * c - (cols - 1)) for c in order] == sorted(
                    abs(2 * c - (cols - 1)) for c in order)
                state = game.play(state, rng.choice(game.moves(state)))


@pytest.mark.parametrize(("moves", "left_to_right", "centre_first"),
                         [("", 3267, 2108), ("4453", 5602, 3902), ("44444362", 5600, 4567)])
def test_centre_first_saves_these_nodes_for_the_same_values(
    moves: str, left_to_right: int, centre_first: int
) -> None:
    # The search's ``order`` option: the player tries the centre columns first below the
    # root. The values are the same (every root move is searched with the full window);
    # only the nodes differ. The counts change only when the search, the heuristic or
    # the forced test does.
    game = ConnectFour()
    state = ConnectFour.from_moves(moves)
    rules = lookahead.search_rules(game.rows, game.cols)
    h, forced = connect_four_heuristic(game), forced_move(game.rows, game.cols)
    results = []
    for order in (None, rules.centre_first):
        stats = Stats()
        decision = iterative_deepening(rules, state, h, max_depth=5, stats=stats,
                                       forced=forced, order=order)
        results.append((decision.move_values, stats.calls))
    (plain_values, plain_calls), (ordered_values, ordered_calls) = results
    assert plain_values == ordered_values
    assert (plain_calls, ordered_calls) == (left_to_right, centre_first)


def test_an_order_that_is_not_a_function_is_refused() -> None:
    game = ConnectFour()
    with pytest.raises(GameError, match="^order must be a function order"):
        iterative_deepening(game, game.start, connect_four_heuristic(game), max_depth=1,
                            order=[3, 2, 4])  # type: ignore[arg-type]


def random_game_states(game: ConnectFour, seed: int, games: int = 20) -> list[C4State]:
    """Every running state of ``games`` seeded random games, in order (repeats kept)."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.start
        while not game.finished(state):
            states.append(state)
            state = game.play(state, rng.choice(game.moves(state)))
    return states


def test_the_remembered_heuristic_gives_the_heuristics_values() -> None:
    # The player's heuristic search remembers each position's estimate: the same
    # numbers for both players (-0.0 included), one call of the heuristic per position.
    game = ConnectFour()
    h, asked = connect_four_heuristic(game), []

    def counted(state: object, player: str) -> float:
        asked.append(state)
        return h(state, player)

    remembered = lookahead.remembered(counted)
    states = random_game_states(game, seed=4)
    for state in states + states:
        for player in game.players:
            value = remembered(state, player)
            assert value == h(state, player)
            assert str(value) == str(h(state, player))  # the sign of a zero too
    assert len(asked) == len(set(states))


def test_the_remembered_forced_test_gives_the_same_moves() -> None:
    game = ConnectFour()
    forced, asked = forced_move(game.rows, game.cols), []

    def counted(state: object) -> object:
        asked.append(state)
        return forced(state)

    remembered = lookahead.remembered_forced(counted)
    states = random_game_states(game, seed=6)
    assert [remembered(s) for s in states + states] == [forced(s) for s in states + states]
    assert len(asked) == len(set(states))
    assert any(forced(s) is None for s in states) and any(forced(s) is not None for s in states)
