"""The rule set of one game: number of players, dealer and rule options."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.defaults import DEALER, MAX_PLAYERS, MIN_PLAYERS, MUST_BEAT, PASS_SIXES, PLAYERS

__all__ = [
    "DEALER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MUST_BEAT",
    "PASS_SIXES",
    "PLAYERS",
    "Dealer",
    "Players",
    "RuleSet",
    "dealer_problem",
]

Players = Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
"""The number of players (rules §1): two to four."""

Dealer = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
"""A dealer's seat, before it is checked against the number of players (:func:`dealer_problem`)."""


def dealer_problem(players: int, dealer: int) -> str | None:
    """Why ``dealer`` cannot deal a ``players``-player game, or ``None`` if it can.

    Every definition of a game's rules (:class:`RuleSet`, the log header
    :class:`rules.events.Start`) asks this one question, so they refuse with one reason.

    >>> dealer_problem(2, 2)
    'dealer 2 is not a seat of a 2-player game'
    >>> dealer_problem(3, 2) is None
    True
    """
    if not 0 <= dealer < players:
        return f"dealer {dealer} is not a seat of a {players}-player game"
    return None


class RuleSet(BaseModel):
    """Who plays and under which options; frozen, so it can key caches and be shared.

    >>> RuleSet()
    RuleSet(players=2, dealer=0, pass_sixes=True, must_beat=False)
    >>> RuleSet(players=3, dealer=2).first_seat
    0
    >>> RuleSet(players=2, dealer=2)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for RuleSet
      Value error, dealer 2 is not a seat of a 2-player game ...
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    players: Players = Field(default=PLAYERS, description="Number of players, 2-4.")
    dealer: Dealer = Field(default=DEALER, description="Seat of the dealer.")
    pass_sixes: bool = Field(
        default=PASS_SIXES, description="After the deal, each six of another player's trump passes to that player."
    )
    must_beat: bool = Field(default=MUST_BEAT, description="Taking is forbidden while you hold a card that beats.")

    @model_validator(mode="after")
    def _dealer_is_a_seat(self) -> RuleSet:
        problem = dealer_problem(self.players, self.dealer)
        if problem is not None:
            raise ValueError(problem)
        return self

    @property
    def first_seat(self) -> int:
        """The player to the dealer's left: chooses a trump first and makes the first lead."""
        return (self.dealer + 1) % self.players
