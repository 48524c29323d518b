"""The random player: a uniformly random legal move, the baseline every other bot must beat."""

from __future__ import annotations

import random

from rules.events import ChooseTrump, Event
from rules.state import View


def choose_trump(view: View, rng: random.Random) -> Event:
    """A random trump among those still free (before the deal nothing favours any suit)."""
    choices = [event for event in view.legal_moves if isinstance(event, ChooseTrump)]
    return rng.choice(choices)


class RandomPlayer:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Event:
        return self._rng.choice(view.legal_moves)
