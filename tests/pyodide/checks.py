"""What tests/test_pyodide.py checks inside Pyodide (run by run.mjs, under node).

Each check is a function; run as the main module, the last expression is a JSON object mapping
each check's name to "ok" or to the traceback that stopped it, so the test reports every
failure by name. The session checks also run in CPython with threads refused
(tests/session/test_threadless.py).
"""

import json
import sys
import threading
import traceback

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


@check
def platform_has_no_threads():
    assert sys.platform == "emscripten", sys.platform
    assert sys.version_info[:2] >= (3, 12), sys.version
    try:
        threading.Thread(target=lambda: None).start()
    except RuntimeError:
        pass
    else:
        raise AssertionError("a thread started in Pyodide")
    from gamelib import runtime

    assert runtime.in_pyodide() and not runtime.in_colab()
    assert runtime.threads_available() is False


@check
def games_play_and_parse():
    from gamelib.games import ConnectFour, Nim, TicTacToe

    for game in (TicTacToe(), ConnectFour(), Nim()):
        state = game.start
        while not game.finished(state):
            state = game.play(state, game.moves(state)[0])
        assert {game.utility(state, p) for p in game.players} <= {-1, 0, 1}


@check
def minimax_makes_6812_calls_after_the_centre_and_a_corner():
    from gamelib.games import TicTacToe
    from gamelib.search import Stats, minimax

    # The tree below X in the centre and O in a corner, as CPython counts it. The tree below
    # the centre alone (55,505 calls, a tenth of the whole tree's 549,946 pinned by
    # tests/search/test_minimax.py) is 1 + 4 x 6,812 (O in a corner: a draw) + 4 x 7,064 (O
    # on an edge: X wins), eight subtrees of the same kind; one of them, a draw like the
    # whole, ends in every way (X wins, O wins, full-board draws) with both players at
    # every depth, for an eighth of the work (this check, imports included: 0.95 s of
    # node's CPU -> 0.5 s).
    game, stats = TicTacToe(), Stats()
    state = game.play(game.play(game.start, (1, 1)), (0, 0))
    assert minimax(game, state, stats=stats) == 0
    assert stats.calls == 6_812


@check
def bounded_cache_ends_with_2474_entries():
    from gamelib.games import TicTacToe
    from gamelib.search import BoundCache, Stats, bounded_alphabeta

    game, stats, cache = TicTacToe(), Stats(), BoundCache()
    assert bounded_alphabeta(game, game.start, cache=cache, stats=stats) == 0
    assert len(cache) == 2_474


@check
def solver_solves_and_analyzes():
    from gamelib.connect4 import Solver
    from gamelib.games import ConnectFour

    small = Solver(ConnectFour(4, 4))
    assert small.solve((0, 0)) == 0 and small.nodes == 6_977
    state = ConnectFour.from_moves("2762751722231276466633475674533")
    assert Solver().analyze(state) == [-5, None, -4, 5, 4, None, None]


@check
def computer_player_chooses_within_budget():
    import random

    from gamelib.games import ConnectFour
    from gamelib.session.players import choose_move

    # A tenth of a second (it was half a second: a wall-clock budget, which the search may
    # spend whole): enough for a move, which is all this checks.
    game = ConnectFour()
    decision = choose_move(game, game.start, seconds=0.1, rng=random.Random(1))
    assert decision.move in game.moves(game.start), decision


def _play_whole_games(make_game, mode, seeds, seconds=1.0):
    """Play whole games through PlaySession, thread-free, ``seconds`` a move; return the
    finished sessions."""
    from gamelib.session import PlaySession

    done = []
    for seed in seeds:
        game = make_game()
        session = PlaySession(game, mode=mode, seed=seed, delay=0, seconds=seconds)
        try:
            if mode == "computer-computer":
                session.run()
            for _ in range(100):
                if game.finished(session.state):
                    break
                if session.thinking:
                    assert session.wait(5), "the computer's move did not finish"
                    continue
                if mode == "computer-computer":  # without threads: one move per tick
                    before = len(session.history)
                    assert session.tick(), session.message
                    assert len(session.history) == before + 1, session.message
                    continue
                # the human side: the first legal move, typed as a student would
                session.submit(game.format_move(game.moves(session.state)[0]))
                assert isinstance(session.message, str) and session.message
            assert game.finished(session.state), f"unfinished after 100 turns: {session.message}"
            replay = game.start
            for move in session.history:
                replay = game.play(replay, move)
            assert replay == session.state, "history does not replay to the final state"
            done.append((game, session))
        finally:
            session.close()
    return done


@check
def session_plays_tictactoe_human_computer():
    from gamelib.games import TicTacToe

    # Ten seconds a move: the search ends as soon as it is exact (a tenth of a second on an
    # idle machine); the margin is for a machine busy with ten other programs. One seed: the
    # search is exact and the human's moves are fixed, so seeds 1, 2 and 3 played the same
    # game move for move ((0, 0), (1, 1), (0, 1), (0, 2), (1, 0), (2, 0), in CPython too).
    for game, session in _play_whole_games(TicTacToe, "human-computer", seeds=(1,),
                                           seconds=10.0):
        human, computer = game.players
        # The computer searches tic-tac-toe perfectly: the human's first-legal-move play loses.
        assert game.utility(session.state, computer) == 1, session.message


@check
def session_plays_connect_four_computer_computer():
    from gamelib.games import ConnectFour

    # A fiftieth of a second a move (it was a twentieth: each move's wall-clock budget is
    # all spent searching, about 40 of them): the point is a whole game of timed moves, each
    # cut short by its budget, one per tick, not the computer's strength.
    _play_whole_games(ConnectFour, "computer-computer", seeds=(7,), seconds=0.02)


@check
def session_undo_and_new_game():
    from gamelib.games import TicTacToe
    from gamelib.session import PlaySession

    game = TicTacToe()
    session = PlaySession(game, mode="human-computer", seed=5, delay=0)
    try:
        session.submit(game.format_move(game.moves(game.start)[0]))
        assert not session.thinking and len(session.history) == 2, session.history
        session.undo()
        assert session.state == game.start and session.history == []
        session.submit("no such move")
        assert session.state == game.start, "a refused move changed the state"
        session.new_game()
        assert session.state == game.start
    finally:
        session.close()


def run_all():
    """Run every check; return {name: "ok" or the traceback} as JSON."""
    results = {}
    for fn in CHECKS:
        try:
            fn()
            results[fn.__name__] = "ok"
        except BaseException:
            results[fn.__name__] = traceback.format_exc(limit=6)
    return json.dumps(results)


# run.mjs runs this file as __main__ and prints the value of its last expression.
# tests/session/test_threadless.py imports it and runs the session checks in CPython.
run_all() if __name__ == "__main__" else None
