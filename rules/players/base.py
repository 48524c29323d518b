"""The player interface shared by people and bots."""

from __future__ import annotations

from typing import Protocol

from rules.events import Event
from rules.state import View


class Player(Protocol):
    """Chooses a move for the seat whose view it is given.

    A player is handed only its own seat's view, never the hidden hands, so every bot is
    fair by construction.
    """

    name: str

    def choose(self, view: View) -> Event:
        """One of ``view.legal_moves`` (which is never empty when a player is asked)."""
        ...
