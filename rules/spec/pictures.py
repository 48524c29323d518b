"""Little pictures of a game for the documentation: each seat's hand and the pile, as HTML card faces, their
words in the language spoken (:mod:`rules.locale`).

The pictures are drawn from a state as ``trumps replay --json`` prints it, so what the
site shows is what the engine computed. The look is in ``docs/stylesheets/cards.css``.

>>> print(card_face("TH"))
<span class="sk-card sk-red" title="TH">10<i>♥</i></span>
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rules.cards import SUIT_CHARS, Card, Suit
from rules.locale import _


def card_face(code: str, *, classes: Collection[str] = ()) -> str:
    """One card as a small face: its rank and suit symbol, red for hearts and diamonds."""
    card = Card.parse(code)
    names = ["sk-card", "sk-red" if card.suit.is_red else "sk-black", *classes]
    return f'<span class="{" ".join(names)}" title="{code}">{card.label[:-1]}<i>{card.suit.symbol}</i></span>'


def table_picture(state: dict[str, Any], *, fresh: Collection[str] = ()) -> str:
    """Every seat's hand and the pile; the seat to act is marked, cards in ``fresh`` are highlighted.

    A card of the seat's own trump suit gets a gold edge: that is what makes it special
    on that seat's turn.
    """
    rows = []
    for seat, hand in enumerate(state["hands"]):
        trump = state["trumps"][seat]
        classes = ["sk-seat"]
        if seat == state["to_act"]:
            classes.append("sk-to-act")
        if not hand and state["phase"] not in ("trump_choice", "deal"):
            classes.append("sk-out")
        trump_text = _("trump {suit}").format(suit=Suit(SUIT_CHARS.index(trump)).symbol) if trump else _("no trump yet")
        no_cards = _("no cards")  # (gettext's extraction does not look into f-strings)
        cards = "".join(_face(code, trump, fresh) for code in hand) or f'<span class="sk-empty">{no_cards}</span>'
        marker = " · " + _("to act") if seat == state["to_act"] else ""
        who = _("Seat {seat}").format(seat=seat)
        rows.append(
            f'<div class="{" ".join(classes)}"><div class="sk-who">{who}<small>{trump_text}{marker}</small>'
            f'</div><div class="sk-hand">{cards}</div></div>'
        )
    pile = state["pile"]
    pile_cards = "".join(
        card_face(code, classes=(["sk-top"] if i == len(pile) - 1 else []) + (["sk-fresh"] if code in fresh else []))
        for i, code in enumerate(pile)
    )
    empty, pile_word, order = _("empty"), _("Pile"), _("bottom → top")
    pile_cards = pile_cards or f'<span class="sk-empty">{empty}</span>'
    pile_row = (
        f'<div class="sk-seat sk-pile-row"><div class="sk-who">{pile_word}<small>{order}</small></div>'
        f'<div class="sk-pile">{pile_cards}</div></div>'
    )
    return f'<div class="sk-table" markdown="0">{"".join(rows)}{pile_row}{_outcome(state)}</div>'


def _face(code: str, trump: str | None, fresh: Collection[str]) -> str:
    classes = []
    if trump and code[1] == trump:
        classes.append("sk-own-trump")
    if code in fresh:
        classes.append("sk-fresh")
    return card_face(code, classes=classes)


def _outcome(state: dict[str, Any]) -> str:
    outcome = state["outcome"]
    if outcome is None:
        return ""
    if outcome["result"] == "loss":
        text = _("Game over: seat {seat} loses").format(seat=outcome["loser"])
    elif outcome.get("reason") == "repetition":
        text = _("Game over: a draw, the same position for the third time")
    else:
        text = _("Game over: a draw by the tie check")
    return f'<div class="sk-outcome">{text}</div>'
