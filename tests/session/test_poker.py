"""The Kuhn poker session: seeded hands, alternating seats, refused input, running winnings."""

from __future__ import annotations

import pytest

from gamelib.errors import GameError
from gamelib.games.kuhn import KuhnPoker
from gamelib.session.poker import PokerSession, cfr_strategy


def test_cfr_strategy_is_computed_once_and_is_kuhns() -> None:
    assert cfr_strategy() is cfr_strategy()
    assert sorted(cfr_strategy()) == ["J", "Jb", "Jp", "Jpb", "K", "Kb", "Kp", "Kpb",
                                      "Q", "Qb", "Qp", "Qpb"]


def test_a_seeded_session_repeats_itself() -> None:
    first, second = PokerSession(seed=5), PokerSession(seed=5)
    for session in (first, second):
        for _ in range(20):
            while session.allowed():
                session.act(session.allowed()[session.hands % 2])
            session.new_hand()
    assert first.winnings == second.winnings and first.hands == second.hands == 21


def test_the_seats_alternate_and_the_computer_opens_in_even_hands() -> None:
    session = PokerSession(seed=2)
    assert (session.hands, session.you, session.state[1]) == (1, "A", "")
    session.act("check")
    while not session.finished:
        session.act(session.allowed()[0])
    session.new_hand()
    assert session.you == "B" and len(session.state[1]) == 1   # the computer acted first
    assert session.message.startswith("Hand 2: you sit second. The computer ")


@pytest.mark.parametrize("text", ["raise", "", None, 3, "fold", "call", ["b"]])
def test_a_refused_action_changes_nothing(text: object) -> None:
    session = PokerSession(seed=3)          # you sit first: check or bet
    state, hands, winnings = session.state, session.hands, session.winnings
    assert session.act(text) is False
    assert "is not an action here: write check or bet." in session.message
    assert (session.state, session.hands, session.winnings) == (state, hands, winnings)


def test_after_the_hand_actions_are_refused_and_new_hand_waits_for_the_end() -> None:
    session = PokerSession(seed=3)
    session.new_hand()
    assert session.message == "Finish this hand first: check or bet." and session.hands == 1
    session.act("bet")
    while not session.finished:
        session.act("call")
    won = session.winnings
    assert session.act("bet") is False and session.message.startswith("This hand is over")
    assert session.winnings == won == KuhnPoker().utility(session.state, "A")


def test_the_computers_card_shows_only_at_a_showdown() -> None:
    session = PokerSession(seed=3)
    assert session.cards_text().endswith("Computer: ?")
    session.act("check")
    if session.allowed() == ["fold", "call"]:
        session.act("fold")
        assert not session.showdown and session.cards_text().endswith("Computer: ?")
        assert "A fold: the cards stay hidden" in session.message
    else:
        assert session.showdown and not session.cards_text().endswith("?")


def test_a_pure_strategy_is_followed() -> None:
    always_bet = {i: {"p": 0.0, "b": 1.0} for i in cfr_strategy()}
    session = PokerSession(always_bet, seed=1)
    session.act("check")
    assert session.history_text() == "you checked, the computer bet"
    assert session.allowed() == ["fold", "call"] and session.pot == 3


@pytest.mark.parametrize(("kwargs", "words"), [({"seed": "1"}, "seed must be a whole number"),
                                               ({"seed": True}, "seed must be a whole number"),
                                               ({"strategy": [1]}, "strategy must be a dict")])
def test_bad_arguments_are_named(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(GameError, match=words):
        PokerSession(**kwargs)  # type: ignore[arg-type]
