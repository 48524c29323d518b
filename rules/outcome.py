"""How a game ended: the one outcome type of the engine, the game, its pictures and notifications.

:mod:`rules.core` makes it when a game ends (each distinct outcome once, then shared by every
game and search line that ends so), :class:`rules.game.Game` reports that
very object, the state and view pictures embed it, and the ``game_over`` notification is
read off it (:func:`rules.convert.game_over`).

>>> Outcome.loss(2, (1, 0)).model_dump()
{'result': 'loss', 'loser': 2, 'out_order': [1, 0]}
>>> Outcome.draw("repetition", ()).model_dump()
{'result': 'draw', 'reason': 'repetition', 'out_order': []}
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.events import Seat

DrawReason = Literal["tie_check", "repetition", "agreement"]
"""Why a game was drawn."""
LossReason = Literal["resigned"]
"""Why a game was lost other than by the tie check (a loss by the tie check has no reason)."""
Reason = Literal["tie_check", "repetition", "agreement", "resigned"]
"""Either: a draw's reason, or a loss's."""


def _absent(value: object) -> bool:
    return value is None


class Outcome(BaseModel):
    """How a game ended: a loss (with the loser) or a draw (by tie check, repetition or agreement)."""

    # (No example here: this docstring is the description of the schemas of spec/; the module's shows the dump.)

    # Whatever it is written into, an outcome leaves out a field it has not (a loser, a reason), never null;
    # the schemas of what is sent say so: every other field is always there.
    model_config = ConfigDict(frozen=True, json_schema_serialization_defaults_required=True)

    result: Literal["loss", "draw"]
    loser: Seat | None = Field(
        default=None,
        exclude_if=_absent,
        description="The seat left holding cards, or the seat that resigned; only for a loss.",
    )
    reason: Reason | None = Field(
        default=None,
        exclude_if=_absent,
        description="Why the game was drawn (always given for a draw), or 'resigned' for a loss by resignation "
        "(absent for a loss by the tie check).",
    )
    out_order: list[Seat] = Field(description="The seats that went out, first first: the winners in order.")

    @classmethod
    def loss(cls, loser: int, out_order: tuple[int, ...]) -> Outcome:
        """``loser`` is left holding cards after the others went out in ``out_order`` (rules §3)."""
        return cls(result="loss", loser=loser, out_order=list(out_order))

    @classmethod
    def resigned(cls, loser: int, out_order: tuple[int, ...]) -> Outcome:
        """``loser`` gave the game up while holding cards (rules §3.4.1)."""
        return cls(result="loss", loser=loser, reason="resigned", out_order=list(out_order))

    @classmethod
    def draw(cls, reason: DrawReason, out_order: tuple[int, ...]) -> Outcome:
        """A draw by the tie check, by a position come round a third time, or by agreement (rules §3)."""
        return cls(result="draw", reason=reason, out_order=list(out_order))
