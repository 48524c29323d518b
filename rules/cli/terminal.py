"""How a game of Svoi Kozyri looks in a terminal: cards, the table, and what just happened.

Everything here turns engine data (card codes, views, events, notifications) into
``rich`` text; nothing here decides a rule. Hearts and diamonds print red, the other
suits in the terminal's own colour; with colour off the same text reads as plain text.

>>> seat_names(players=3, you=1)
['East', 'You', 'West']
>>> card_text("TH").plain
'10♥'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rules import core
from rules.cards import SUIT_CHARS, Card, Suit
from rules.events import Beat, ChooseTrump, Deal, Lead, Notification, Second, SixPassed, Take, Took, WentOut
from rules.state import Outcome, View

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

# Seats are named by compass point with you in the South; play passes to the left
# (South, West, North, East), which is the order of increasing seat numbers.
_COMPASS = {2: ("You", "North"), 3: ("You", "West", "East"), 4: ("You", "West", "North", "East")}

PILE_SHOWN = 8
"""How many of the pile's top cards the table shows."""

TABLE_WIDTH = 78
"""The table's width, so that it does not jump from turn to turn."""


def seat_names(players: int, you: int) -> list[str]:
    """The display name of every seat: ``You`` for yours, compass points for the others."""
    names = _COMPASS[players]
    return [names[(seat - you) % players] for seat in range(players)]


def deals(name: str) -> str:
    """``You deal`` or ``North deals``."""
    return f"{name} deal{'' if name == 'You' else 's'}"


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return str(place) + {1: "st", 2: "nd", 3: "rd"}.get(place, "th")


def suit_style(letter: str) -> str:
    return "red" if Suit.parse(letter).is_red else "bold"


def suit_text(letter: str, *, name: bool = False) -> Text:
    """A suit's symbol (and name), coloured: ``♥ hearts``."""
    symbol = Suit.parse(letter).symbol
    return Text(f"{symbol} {SUIT_NAMES[letter]}" if name else symbol, style=suit_style(letter))


def card_text(code: str, *, style: str = "") -> Text:
    """A card as ``10♠``, its suit coloured; ``style`` is added on top (``bold``, ``dim``, ...)."""
    return Text(Card.parse(code).label, style=f"{suit_style(code[1])} {style}".strip())


def cards_text(codes: Sequence[str]) -> Text:
    return Text(" ").join(card_text(code) for code in codes)


def label(code: str) -> str:
    """The plain label of a card, e.g. ``10♠``."""
    return Card.parse(code).label


# --- What happened -----------------------------------------------------------------------------


def describe_trump(name: str, event: ChooseTrump) -> Text:
    """``West chose ♥ hearts as trump.``"""
    return Text.assemble(f"{name} chose ", suit_text(event.suit, name=True), " as trump.")


def describe_deal(deal: Deal, notes: Sequence[Notification], names: Sequence[str]) -> list[Text]:
    """The deal and the sixes passed right after it."""
    sizes = {len(hand) for hand in deal.hands}
    each = f"{sizes.pop()} cards each" if len(sizes) == 1 else "cards"
    lines = [Text(f"The cards are dealt: {each}.")]
    for note in notes:
        if isinstance(note, SixPassed):
            lines.append(
                Text.assemble(
                    f"{names[note.from_seat]} passed ",
                    card_text(note.card),
                    f" to {'you' if names[note.to_seat] == 'You' else names[note.to_seat]} "
                    f"({'your' if names[note.to_seat] == 'You' else 'their'} trump).",
                )
            )
    return lines


def describe_move(name: str, event: Lead | Beat | Second, top: str | None, pending: Text | None) -> Text:
    """One move in words. A beat is reported with its second card, so ``pending`` carries it over.

    >>> beat = describe_move("East", Beat(seat=1, card="JH"), "9H", None)
    >>> describe_move("East", Second(seat=1, card="7C"), None, beat).plain
    'East beat 9♥ with J♥ and played 7♣'
    """
    if isinstance(event, Lead):
        return Text.assemble(f"{name} led ", card_text(event.card))
    if isinstance(event, Beat):
        assert top is not None
        return Text.assemble(f"{name} beat ", card_text(top), " with ", card_text(event.card))
    start = pending if pending is not None else Text(name)
    return Text.assemble(start, " and played ", card_text(event.card))


def describe_notes(
    notes: Sequence[Notification],
    names: Sequence[str],
    move_number: int,
    top: str | None = None,
    trumps: Sequence[str | None] = (),
) -> list[Text]:
    """Cards taken and players going out, as the rules reported them.

    ``top`` is the pile's top card afterwards: after a take that leaves cards, the next
    player must answer it, so it is named. With ``trumps`` (each seat's suit), a take of
    more than three cards says why: the top card was the taker's trump.

    >>> took = Took(seat=2, cards=["9H", "JH", "7C"], whole_pile=False)
    >>> describe_notes([took], ["You", "North", "West"], 12, "8S")[0].plain
    'West took 3 cards: 9♥ J♥ 7♣; 8♠ is on top now.'
    >>> took = Took(seat=1, cards=["8S", "9H", "JH", "7C", "QC"], whole_pile=False)
    >>> describe_notes([took], ["You", "North"], 12, "6S", trumps=["H", "C"])[0].plain
    'North took 5 cards, Q♣ being their trump: 8♠ 9♥ J♥ 7♣ Q♣; 6♠ is on top now.'
    """
    lines: list[Text] = []
    for note in notes:
        if isinstance(note, Took):
            name = names[note.seat]
            count = len(note.cards)
            whole = " (the whole pile)" if note.whole_pile else ""
            taken_top = note.cards[-1]
            why = (
                f", {label(taken_top)} being {'your' if name == 'You' else 'their'} trump"
                if note.seat < len(trumps) and trumps[note.seat] == taken_top[1] and count > 3
                else ""
            )
            left = Text.assemble("; ", card_text(top), " is on top now") if top is not None else Text("")
            lines.append(
                Text.assemble(
                    f"{name} took {count} card{'s' if count != 1 else ''}{whole}{why}: ",
                    cards_text(note.cards),
                    left,
                    ".",
                )
            )
        elif isinstance(note, WentOut):
            name = names[note.seat]
            style = "bold green" if name == "You" else "bold"
            lines.append(Text(f"{name} went out, {ordinal(note.place)} (move {move_number}).", style=style))
    return lines


# --- The table ---------------------------------------------------------------------------------


def table(view: View, names: Sequence[str], title: str, moves: Text, width: int = TABLE_WIDTH) -> RenderableType:
    """The table as seen from your seat: the others' counts and trumps, the pile, your numbered hand.

    Only what ``view`` shows is drawn: the others appear as card counts (plus the cards
    everybody saw them pick up), never as hands.
    """
    you = view.seat
    assert you is not None
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, justify="right")
    grid.add_column()
    for seat in [(you + step) % view.players for step in range(1, view.players)]:
        count = view.hand_counts[seat]
        known = view.known[seat]
        extra = Text.assemble(Text("holds ", style="dim"), cards_text(known)) if known and count else Text("")
        if seat in view.out_order:
            extra = Text(f"went out {ordinal(view.out_order.index(seat) + 1)}", style="green")
        grid.add_row(names[seat], _trump_of(view, seat), "" if seat in view.out_order else _count(count), extra)
    grid.add_row("Pile", "", _count(len(view.pile)) if view.pile else "", _pile_text(view.pile))
    grid.add_row("You", _trump_of(view, you), _count(len(view.hand)), "")
    body: list[RenderableType] = [grid, hand_text(view), Text(""), moves]
    return Panel(Group(*body), title=title, title_align="left", border_style="cyan", width=width)


def _trump_of(view: View, seat: int) -> Text:
    """``trump ♥``: labelled, since a bare suit symbol beside a name does not say what it is."""
    trump = view.trumps[seat]
    return Text("") if trump is None else Text.assemble(Text("trump ", style="dim"), suit_text(trump))


def _count(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _pile_text(pile: Sequence[str]) -> Text:
    if not pile:
        return Text("empty", style="dim")
    shown = pile[-PILE_SHOWN:]
    parts = [Text("… ", style="dim")] if len(pile) > len(shown) else []
    parts.extend(card_text(code, style="dim") + " " for code in shown[:-1])
    parts.append(card_text(shown[-1], style="bold reverse"))
    parts.append(Text(" ◀ top", style="dim"))
    return Text.assemble(*parts)


def hand_text(view: View) -> Table:
    """Your hand, one row per suit, each card numbered from 1; the cards you may play now stand out."""
    playable = {getattr(event, "card", None) for event in view.legal_moves}
    trump = view.trumps[view.seat] if view.seat is not None else None
    rows = Table.grid(padding=(0, 1))
    rows.add_column(no_wrap=True)
    rows.add_column()
    number = 0
    for suit in SUIT_CHARS:
        cards = [code for code in view.hand if code[1] == suit]
        if not cards:
            continue
        parts: list[Text] = []
        for code in cards:
            number += 1
            style = "bold" if code in playable else "dim"
            parts.append(Text.assemble(Text(f"{number:>2} ", style="dim"), card_text(code, style=style)))
        head = Text.assemble("  ", suit_text(suit))
        tail = Text("  trump", style="dim") if suit == trump else Text("")
        rows.add_row(head, Text.assemble(Text("  ").join(parts), tail))
    return rows


def moves_text(view: View, names: Sequence[str]) -> Text:
    """Your legal moves in words, with each card's number in your hand."""
    you = view.seat
    assert you is not None
    number = {code: i for i, code in enumerate(view.hand, start=1)}
    cards = [event.card for event in view.legal_moves if isinstance(event, Beat)]
    can_take = any(isinstance(event, Take) for event in view.legal_moves)
    listed = Text(", ").join(Text.assemble(card_text(code, style="bold"), f" ({number[code]})") for code in cards)
    answers = names[core.next_seat(view.hand_counts, you)]
    if view.phase == "lead":
        return Text(f"Lead any card (its number, or its name like 10S); {answers} must answer it.")
    if view.phase == "second":
        return Text(f"Now play a second card on it, any card; {answers} must answer that one.")
    top = view.pile[-1]
    trump = view.trumps[you]
    assert trump is not None
    count = core.take_count(Card.parse(top), len(view.pile), SUIT_CHARS.index(trump))
    take = Text.assemble(Text(f"take {count} card{'s' if count != 1 else ''}", style="bold"), " (t)")
    if not cards:
        return Text.assemble("You cannot beat ", card_text(top), ": ", take, ", or just press Enter.")
    if not can_take:
        return Text.assemble("Beat ", card_text(top), " with ", listed, " (must beat: you may not take).")
    return Text.assemble("Beat ", card_text(top), " with ", listed, ", or ", take, ".")


def outcome_words(outcome: Outcome, names: Sequence[str], last_hand: Sequence[str], top: str | None) -> str:
    """The result in one sentence, from your point of view."""
    if outcome.result == "loss":
        assert outcome.loser is not None
        loser = names[outcome.loser]
        if loser == "You":
            return f"You lost: you were left holding {_count(len(last_hand))}."
        return f"{loser} lost. You won, {ordinal(_place(outcome, names))} out."
    if outcome.reason == "repetition":
        return "Draw: the same position came up for the third time."
    if last_hand and top is not None:
        return f"Draw: the last card, {label(last_hand[0])}, beats {label(top)} on the pile."
    return "Draw by the tie check."


def _place(outcome: Outcome, names: Sequence[str]) -> int:
    return [names[seat] for seat in outcome.out_order].index("You") + 1


# --- The match ---------------------------------------------------------------------------------


def _you_first(names: Sequence[str]) -> list[int]:
    """The seats in the order of play starting from yours."""
    you = list(names).index("You")
    return [(you + step) % len(names) for step in range(len(names))]


def score_text(hands_lost: Sequence[int], draws: int, names: Sequence[str]) -> Text:
    """The match score so far: hands lost by each seat, yours first, and the draws.

    >>> score_text([2, 0, 1], 1, ["North", "West", "You"]).plain
    'Score after 4 hands, hands lost: You 1, North 2, West 0; 1 draw.'
    """
    played = sum(hands_lost) + draws
    each = ", ".join(f"{names[seat]} {hands_lost[seat]}" for seat in _you_first(names))
    drawn = f"; {draws} draw{'s' if draws != 1 else ''}" if draws else ""
    return Text(f"Score after {played} hand{'s' if played != 1 else ''}, hands lost: {each}{drawn}.", style="bold")


def match_summary(hands_lost: Sequence[int], draws: int, names: Sequence[str]) -> list[Text]:
    """The end of a match: hands lost per seat, and who lost the fewest.

    >>> [line.plain for line in match_summary([1, 3], 1, ["You", "North"])]
    ['You lost 1 hand.', 'North lost 3 hands.', 'Draws: 1.', 'You lost the fewest hands: the match is yours!']
    >>> match_summary([1, 0, 0, 0], 0, ["You", "West", "North", "East"])[-1].plain
    'West, North and East share the fewest hands lost.'
    """
    lines = [
        Text(f"{names[seat]} lost {hands_lost[seat]} hand{'s' if hands_lost[seat] != 1 else ''}.")
        for seat in _you_first(names)
    ]
    if draws:
        lines.append(Text(f"Draws: {draws}."))
    fewest = min(hands_lost)
    best = [names[seat] for seat in _you_first(names) if hands_lost[seat] == fewest]
    if len(best) == len(names):
        lines.append(Text("All square: everybody lost as many hands.", style="bold"))
    elif best == ["You"]:
        lines.append(Text("You lost the fewest hands: the match is yours!", style="bold green"))
    elif len(best) == 1:
        lines.append(Text(f"{best[0]} lost the fewest hands and wins the match.", style="bold"))
    else:
        lines.append(Text(f"{', '.join(best[:-1])} and {best[-1]} share the fewest hands lost.", style="bold"))
    return lines
