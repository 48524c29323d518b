"""Serializable pictures of a game: the full state, one seat's view, the outcome."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.cards import CardCode
from rules.events import Event, RuleOptions, Seat, SuitCode
from rules.outcome import Outcome

__all__ = ["GameState", "Outcome", "PhaseName", "View"]

PhaseName = Literal["trump_choice", "deal", "lead", "respond", "second", "finished"]


class GameState(BaseModel):
    """The whole state, as ``trumps replay --json`` prints it (log format §L5)."""

    model_config = ConfigDict(frozen=True, json_schema_serialization_defaults_required=True)

    phase: PhaseName
    to_act: Seat | None = Field(description="The seat whose decision is awaited; null during the deal and at the end.")
    trumps: list[SuitCode | None] = Field(description="Each seat's trump suit, null until chosen.")
    hands: list[list[CardCode]] = Field(description="Each seat's hand, sorted by suit S H D C, then rank.")
    pile: list[CardCode] = Field(description="Bottom to top.")
    outcome: Outcome | None


class View(BaseModel):
    """What one seat may see: never another seat's hidden cards.

    ``seat`` is ``None`` for a spectator's public view. ``known`` lists, per seat, the
    cards everybody knows that seat holds (cards it picked up from the pile or
    received as passed sixes, and not yet played). ``out_of_play`` lists cards
    absent from a game started from a position.
    """

    model_config = ConfigDict(frozen=True, json_schema_serialization_defaults_required=True)

    seat: Seat | None
    players: int
    rules: RuleOptions = Field(description="The rule options of this game (public).")
    phase: PhaseName
    to_act: Seat | None
    trumps: list[SuitCode | None]
    hand: list[CardCode] = Field(description="This seat's own hand, sorted; empty for a spectator.")
    hand_counts: list[int]
    known: list[list[CardCode]]
    pile: list[CardCode]
    out_of_play: list[CardCode]
    out_order: list[Seat]
    legal_moves: list[Event] = Field(description="This seat's legal moves; empty when it is not to act.")
    outcome: Outcome | None
