"""Kuhn poker in a real browser: the buttons play, the message and the cards follow, a
refused press changes nothing, New hand deals with the seats swapped.

The fixture notebook ``notebooks/poker_table.ipynb`` runs ``poker_table(seed=3)`` in
JupyterLab. A twin session in this process, with the same seed, says which message and
which cards the page must show after each press; the computer's card is read back from
the canvas (its back is dark red, a shown card white).
"""

from __future__ import annotations

import pytest

from gamelib.ui.poker import PokerTable, poker_table

from .harness import UI_TIMEOUT, LabPage, check_fixture_notebook, rgba, wait_equal

pytestmark = pytest.mark.browser

NOTEBOOK = "poker_table.ipynb"
CALL = "poker_table(seed=3)"
BACK, FACE = rgba("#8c1d18"), rgba("#ffffff")
COMPUTER_CARD = (70, 30)
"""A pixel of the computer's card, away from its letter."""


def twin() -> PokerTable:
    return poker_table(seed=3, display=False)


def test_fixture_notebook_plays_the_twin_hands() -> None:
    check_fixture_notebook(NOTEBOOK, CALL)


def test_bet_refuse_and_deal(shared_lab: LabPage) -> None:
    lab, reference = shared_lab, twin()
    lab.run_in_place(NOTEBOOK)
    canvas = lab.visible_canvas()
    lab.expect_board(canvas, 520, 300)
    lab.wait_text(reference.session.message)      # "Hand 1: you sit first. Your turn: ..."
    assert lab.pixel(canvas, *COMPUTER_CARD) == BACK
    lab.screenshot("poker-1-dealt")

    # Bet: the computer calls, the cards are shown (the twin knows the outcome).
    assert reference.press("bet")
    lab.press_button("Bet")
    lab.wait_text(reference.session.message)
    assert reference.session.showdown
    wait_equal(lambda: lab.pixel(canvas, *COMPUTER_CARD), FACE, UI_TIMEOUT / 1000,
               "the computer's card shown at the showdown")
    lab.screenshot("poker-2-showdown")

    # The hand is over: the action buttons are disabled; New hand deals, seats swapped.
    assert reference.press("new hand") and reference.session.you == "B"
    lab.press_button("New hand")
    lab.wait_text(reference.session.message)
    wait_equal(lambda: lab.pixel(canvas, *COMPUTER_CARD), BACK, UI_TIMEOUT / 1000,
               "the computer's card face down again")
    lab.screenshot("poker-3-second-hand")
