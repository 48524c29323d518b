"""A match: several hands in a row, the loser of each dealing the next (rules §4).

A :class:`Match` is the score sheet, nothing more: the rule options, the first dealer,
how many hands it runs (``None`` for as many as the players like) and the outcome of
every finished hand. Who deals next and how many hands each seat lost are read off that
list, so taking back the last result (a hand whose end was undone) is just dropping it.
Who deals after a hand is :func:`rules.core.next_dealer`; the hands themselves are
ordinary :class:`~rules.game.Game` objects, one per hand, each with its own replay log.

>>> match = Match(RuleSet(players=3, dealer=0), hands=3)
>>> match.rule_set().dealer
0
>>> match.record(Outcome(result="loss", loser=2, out_order=[1, 0]))
>>> match.dealer, match.hands_lost, match.over
(2, [0, 0, 1], False)
>>> match.record(Outcome(result="draw", reason="tie_check", out_order=[0, 1]))
>>> match.dealer, match.draws, match.hand_number
(2, 1, 3)
"""

from __future__ import annotations

from rules import core
from rules.options import RuleSet
from rules.state import Outcome


class Match:
    """The hands of a match so far, from ``rules`` (its ``dealer`` deals the first hand)."""

    def __init__(self, rules: RuleSet, hands: int | None = None) -> None:
        if hands is not None and hands < 1:
            raise ValueError(f"a match has at least 1 hand, not {hands}")
        self.rules = rules
        self.hands = hands
        self.results: list[Outcome] = []

    @property
    def dealer(self) -> int:
        """The dealer of the hand being played (or of the next one, between hands)."""
        dealer = self.rules.dealer
        for outcome in self.results:
            dealer = core.next_dealer(dealer, outcome.loser)
        return dealer

    @property
    def hand_number(self) -> int:
        """The number of the hand being played (or of the next one), from 1."""
        return len(self.results) + 1

    @property
    def over(self) -> bool:
        """Whether the fixed number of hands has been played (never, for an open-ended match)."""
        return self.hands is not None and len(self.results) >= self.hands

    def rule_set(self) -> RuleSet:
        """The rules of the hand being played: the match's options with this hand's dealer."""
        return self.rules.model_copy(update={"dealer": self.dealer})

    def record(self, outcome: Outcome) -> None:
        """The hand being played ended with ``outcome``."""
        if self.over:
            raise ValueError(f"the match of {self.hands} hands is over")
        self.results.append(outcome)

    def take_back(self) -> Outcome:
        """Forget the last hand's result (its end was undone); returns it."""
        if not self.results:
            raise ValueError("no hand has been finished yet")
        return self.results.pop()

    @property
    def hands_lost(self) -> list[int]:
        """How many hands each seat lost."""
        lost = [0] * self.rules.players
        for outcome in self.results:
            if outcome.loser is not None:
                lost[outcome.loser] += 1
        return lost

    @property
    def draws(self) -> int:
        """How many hands ended in a draw."""
        return sum(1 for outcome in self.results if outcome.loser is None)
