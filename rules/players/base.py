"""The player interface shared by people and bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from rules.core import PositionKey
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


@runtime_checkable
class Remembering(Protocol):
    """A player that can use the game's repetition history (rules §3.3.3), which a view does not hold."""

    def set_history(self, seen: Mapping[PositionKey, int]) -> None:
        """How often each position of the game has come up (``State.seen``), for its next :meth:`Player.choose`."""
        ...


def choose_move(player: Player, view: View, seen: Mapping[PositionKey, int]) -> Event:
    """``player``'s move for ``view``, told first how often each position of the game has come up (``seen``) if it
    can use that (:class:`Remembering`).

    Only in the duel: there a seat knows every card in play (every card is dealt, the other
    hand is what it does not hold), so the positions are public knowledge; with three or four
    players their keys would show hidden hands.
    """
    if view.players == 2 and isinstance(player, Remembering):
        player.set_history(seen)
    return player.choose(view)
