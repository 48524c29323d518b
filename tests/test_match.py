"""Rules §4: in a match the loser deals the next hand; after a draw the same dealer deals again."""

from __future__ import annotations

from rules import core
from rules.events import Position
from rules.game import Game


def test_4_the_loser_deals_the_next_hand() -> None:
    game = Game.from_position(
        Position(trumps=["S", "H"], hands=[["7D"], ["8D", "9C"]], pile=[], to_act=0, phase="lead")
    )
    game.push(game.legal_moves()[0])  # seat 0 leads its last card: seat 1 is left with two cards and loses
    outcome = game.outcome
    assert outcome is not None and outcome.loser == 1
    assert core.next_dealer(0, outcome.loser) == 1


def test_4_after_a_draw_the_same_dealer_deals_again() -> None:
    game = Game.from_position(Position(trumps=["S", "H"], hands=[["7D"], ["8D"]], pile=[], to_act=0, phase="lead"))
    game.push(game.legal_moves()[0])  # seat 1's last card 8D beats 7D: the tie check draws
    outcome = game.outcome
    assert outcome is not None and outcome.result == "draw" and outcome.loser is None
    assert core.next_dealer(2, outcome.loser) == 2
