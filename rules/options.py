"""The rule set of one game: number of players, dealer and rule options."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


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
      Value error, dealer 2 is not a seat of a 2-player game (seats 0-1) ...
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    players: int = Field(default=2, ge=2, le=4, description="Number of players, 2-4.")
    dealer: int = Field(default=0, ge=0, description="Seat of the dealer.")
    pass_sixes: bool = Field(
        default=True, description="After the deal, each six of another player's trump passes to that player."
    )
    must_beat: bool = Field(default=False, description="Taking is forbidden while you hold a card that beats.")

    @model_validator(mode="after")
    def _dealer_is_a_seat(self) -> RuleSet:
        if self.dealer >= self.players:
            raise ValueError(
                f"dealer {self.dealer} is not a seat of a {self.players}-player game (seats 0-{self.players - 1})"
            )
        return self

    @property
    def first_seat(self) -> int:
        """The player to the dealer's left: chooses a trump first and makes the first lead."""
        return (self.dealer + 1) % self.players

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 18, 12 or 9."""
        return 36 // self.players
