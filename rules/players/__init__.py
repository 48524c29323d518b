"""Players: anything that, given one seat's :class:`~rules.state.View`, picks one of its legal moves.

A player is handed only its own seat's view, never the hidden hands, so every bot is
fair by construction. :func:`make_player` builds the opponent for a difficulty level.
"""

from __future__ import annotations

import random
from typing import Protocol

from rules.events import Event
from rules.state import View


class Player(Protocol):
    """Chooses a move for the seat whose view it is given."""

    name: str

    def choose(self, view: View) -> Event:
        """One of ``view.legal_moves`` (which is never empty when a player is asked)."""
        ...


class RandomPlayer:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Event:
        return self._rng.choice(view.legal_moves)


LEVELS = ("easy", "medium", "hard", "perfect")


def make_player(level: str, seed: int | None = None) -> Player:
    """The computer opponent of a difficulty level (one of :data:`LEVELS`)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    return RandomPlayer(seed)
