"""Exact facts about Kuhn poker: the deal, the hands, the payoffs and what each player sees."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError
from gamelib.game import CHANCE, chance_outcomes, is_chance
from gamelib.games.kuhn import KuhnPoker

GAME = KuhnPoker()


def finished_hands() -> list[Any]:
    """Every finished state, reached from the start through every deal and action."""
    found: list[Any] = []
    frontier = GAME.next_states(GAME.start, CHANCE)
    while frontier:
        state = frontier.pop()
        if GAME.finished(state):
            found.append(state)
        else:
            frontier.extend(GAME.play(state, move) for move in GAME.moves(state))
    return found


def test_the_deal_is_six_outcomes_of_one_sixth_each() -> None:
    assert GAME.moves(GAME.start) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    outcomes = chance_outcomes(GAME, GAME.start)          # the door of Lesson 10 checks them
    assert [p for p, _ in outcomes] == [Fraction(1, 6)] * 6
    assert [s for _, s in outcomes] == [((a, b), "") for a, b in GAME.moves(GAME.start)]
    assert is_chance(GAME, GAME.start) and GAME.to_move(GAME.start) == CHANCE
    assert not is_chance(GAME, ((0, 1), ""))


def test_thirty_hands_end_in_five_ways_and_are_zero_sum() -> None:
    hands = finished_hands()
    assert len(hands) == 30
    assert sorted({history for _, history in hands}) == ["bb", "bp", "pbb", "pbp", "pp"]
    for state in hands:
        assert GAME.utility(state, "A") == -GAME.utility(state, "B") != 0


@pytest.mark.parametrize(("cards", "history", "a_wins"), [
    ((2, 0), "pp", 1), ((0, 2), "pp", -1),     # showdown for the antes
    ((1, 2), "bb", -2), ((2, 1), "pbb", 2),    # showdown after a bet and a call
    ((0, 2), "bp", 1), ((2, 0), "pbp", -1),    # a fold: the bettor wins, whatever the cards
])
def test_payoffs(cards: tuple[int, int], history: str, a_wins: int) -> None:
    assert GAME.utility((cards, history), "A") == a_wins


def test_a_player_sees_its_own_card_and_the_actions_only() -> None:
    assert GAME.information_set(((2, 0), "pb"), "A") == "Kpb"
    # A holding the King cannot tell B's Jack from B's Queen: the same information set.
    assert GAME.information_set(((2, 0), "pb"), "A") == GAME.information_set(((2, 1), "pb"), "A")
    assert GAME.information_set(((2, 0), "pb"), "B") != GAME.information_set(((2, 1), "pb"), "B")


def test_turns_and_moves() -> None:
    state = GAME.play(GAME.start, (1, 2))
    assert GAME.to_move(state) == "A" and GAME.moves(state) == ["p", "b"]
    state = GAME.play(state, "p")
    assert GAME.to_move(state) == "B"
    assert GAME.moves(GAME.play(state, "p")) == []


@pytest.mark.parametrize("move", ["x", 1, None, "bet", ("b",)])
def test_an_illegal_action_is_refused_and_the_state_kept(move: object) -> None:
    state = GAME.play(GAME.start, (0, 1))
    with pytest.raises(IllegalMoveError, match="an action is 'p' \\(pass\\) or 'b' \\(bet\\)"):
        GAME.play(state, move)
    assert state == ((0, 1), "")


@pytest.mark.parametrize("deal", [(0, 0), (1, 3), [0, 1], "01", None])
def test_a_bad_deal_is_refused(deal: object) -> None:
    with pytest.raises(IllegalMoveError, match="two different cards"):
        GAME.play(GAME.start, deal)


@pytest.mark.parametrize("state", [((), "p"), ((0, 1), "ppp"), ((0, 0), ""), "start", ((0, 1),)])
def test_a_bad_state_is_named(state: object) -> None:
    with pytest.raises(GameError, match="is not a state of Kuhn poker"):
        GAME.play(state, "p")  # type: ignore[arg-type]


def test_the_hand_is_over_after_a_fold_and_utility_waits_for_the_end() -> None:
    with pytest.raises(IllegalMoveError, match="the hand is over"):
        GAME.play(((0, 1), "bp"), "b")
    with pytest.raises(GameError, match="not over yet"):
        GAME.utility(((0, 1), "b"), "A")
    with pytest.raises(GameError, match="the players are"):
        GAME.utility(((0, 1), "bp"), "C")


@pytest.mark.parametrize(("text", "move"), [("p", "p"), (" Check ", "p"), ("fold", "p"),
                                            ("call", "b"), ("BET", "b")])
def test_parse_and_format(text: str, move: str) -> None:
    assert GAME.parse_move(text) == move
    assert GAME.parse_move(GAME.format_move(move)) == move


@pytest.mark.parametrize("text", ["raise", "", "7", None])
def test_parse_refuses_other_words(text: Any) -> None:
    with pytest.raises(MoveFormatError, match="write p, pass, check or fold"):
        GAME.parse_move(text)


def test_render() -> None:
    assert GAME.render(GAME.start) == "cards not dealt yet"
    assert GAME.render(((2, 0), "pb")) == "A: K  B: J  | pass, bet"
