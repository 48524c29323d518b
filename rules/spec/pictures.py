"""Little pictures of a game for the documentation: each seat's hand and the pile, as HTML card faces.

The pictures are drawn from a state as ``trumps replay --json`` prints it, so what the
site shows is what the engine computed. The look is in ``docs/stylesheets/cards.css``.

>>> print(card_face("TH"))
<span class="sk-card sk-red" title="TH">10<i>♥</i></span>
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rules.cards import SUIT_CHARS, Card, Suit


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
        trump_text = f"trump {Suit(SUIT_CHARS.index(trump)).symbol}" if trump else "no trump yet"
        cards = "".join(_face(code, trump, fresh) for code in hand) or '<span class="sk-empty">no cards</span>'
        marker = " · to act" if seat == state["to_act"] else ""
        rows.append(
            f'<div class="{" ".join(classes)}"><div class="sk-who">Seat {seat}<small>{trump_text}{marker}</small>'
            f'</div><div class="sk-hand">{cards}</div></div>'
        )
    pile = state["pile"]
    pile_cards = "".join(
        card_face(code, classes=(["sk-top"] if i == len(pile) - 1 else []) + (["sk-fresh"] if code in fresh else []))
        for i, code in enumerate(pile)
    )
    pile_cards = pile_cards or '<span class="sk-empty">empty</span>'
    pile_row = (
        f'<div class="sk-seat sk-pile-row"><div class="sk-who">Pile<small>bottom → top</small></div>'
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
        text = f"Game over: seat {outcome['loser']} loses"
    elif outcome.get("reason") == "repetition":
        text = "Game over: a draw, the same position for the third time"
    else:
        text = "Game over: a draw by the tie check"
    return f'<div class="sk-outcome">{text}</div>'
