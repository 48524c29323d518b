"""Why the rules refuse an event, as data: a stable code, the rule clause, the seat, the cards.

Every interface renders a :class:`Refusal` from its data: the log reader and the API
in English (:attr:`Refusal.message`, the sentence checkers compare), the terminal game
with card labels and player names (:meth:`Refusal.render`), the server as a JSON
object (:meth:`Refusal.data`). Nobody parses the sentence back.

The sentence is kept as a template whose fields name the seats and cards it mentions:
``{s0}`` is "seat N" for the ``N = seats[0]``, ``{p0}`` its possessive "seat N's",
``{c0}`` the card ``cards[0]``.

>>> refusal = Refusal("lower_card", "2.4", 0, ("KS", "7S"), (0,),
...                   "{s0} cannot beat {c0} with {c1}: {c1} is lower than {c0}")
>>> refusal.message
'seat 0 cannot beat KS with 7S: 7S is lower than KS'
>>> refusal.render(seat=lambda s: "you", possessive=lambda s: "your", card=lambda c: c.lower())
'you cannot beat ks with 7s: 7s is lower than ks'
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any, NamedTuple

_FORMATTER = string.Formatter()


class Refusal(NamedTuple):
    """One refused event: ``code`` (stable, for programs), ``clause`` of docs/rules.md, who and what."""

    code: str
    clause: str
    seat: int | None
    cards: tuple[str, ...]
    seats: tuple[int, ...]
    template: str

    @property
    def message(self) -> str:
        """The English sentence (what ``trumps replay`` prints after ``line N:``)."""
        return self.render(seat=lambda s: f"seat {s}", possessive=lambda s: f"seat {s}'s", card=str)

    def render(
        self, *, seat: Callable[[int], str], possessive: Callable[[int], str], card: Callable[[str], str]
    ) -> str:
        """The sentence with seats and cards written by the caller (names, labels, colours)."""
        fields: dict[str, str] = {}
        for _, name, _, _ in _FORMATTER.parse(self.template):
            if name:
                kind, index = name[0], int(name[1:])
                if kind == "c":
                    fields[name] = card(self.cards[index])
                else:
                    fields[name] = (seat if kind == "s" else possessive)(self.seats[index])
        return self.template.format(**fields)

    def data(self) -> dict[str, Any]:
        """The refusal as a JSON object: ``code``, ``clause``, ``seat``, ``cards`` and the English ``message``."""
        return {
            "code": self.code,
            "clause": self.clause,
            "seat": self.seat,
            "cards": list(self.cards),
            "message": self.message,
        }

    def __str__(self) -> str:
        return self.message


def counted(number: int, noun: str) -> str:
    """``number`` of ``noun``, in English: ``1 card``, ``2 cards`` (the English sentence of a refusal).

    >>> counted(1, "trump"), counted(3, "hand")
    ('1 trump', '3 hands')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def refuse(
    code: str,
    clause: str,
    template: str,
    *,
    seat: int | None = None,
    cards: tuple[str, ...] = (),
    seats: tuple[int, ...] | None = None,
) -> Refusal:
    """A refusal of ``seat``'s event; the template's seats are ``seats`` (``(seat,)`` when not given)."""
    if seats is None:
        seats = () if seat is None else (seat,)
    return Refusal(code, clause, seat, cards, seats, template)
