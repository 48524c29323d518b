"""How a game of Svoi Kozyri looks in a terminal: cards, the table, and what just happened.

Everything here turns engine data (card codes, views, events, notifications) into
``rich`` text; nothing here decides a rule. Hearts and diamonds print red, the other
suits in the terminal's own colour; with colour off the same text reads as plain text.
Every sentence is one whole message of the gettext catalogs (:mod:`rules.locale`), with
``{placeholders}`` for names and cards; a sentence about you has a message of its own,
since most languages conjugate the verb for it.

>>> seat_names(players=3, you=1)
['East', 'You', 'West']
>>> card_text("TH").plain
'10♥'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rules import core
from rules.cards import FULL_PACK_MASK, RANK_CHARS, SUIT_CHARS, Card, Suit, codes_of_mask
from rules.events import Beat, ChooseTrump, Deal, Event, Lead, Notification, Second, SixPassed, Take, Took, WentOut
from rules.locale import _, ngettext, number, percent, pgettext
from rules.state import Outcome, View

if TYPE_CHECKING:
    from rules.analysis import Evaluation


def suit_name(letter: str) -> str:
    """A suit's name in the language spoken: ``hearts``, ``черви``."""
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}[letter]


def you_name() -> str:
    """Your seat's name: ``You``."""
    return _("You")


def is_you(name: str) -> bool:
    """Whether ``name`` (from :func:`seat_names`) is your seat's."""
    return name == you_name()


def compass_names(players: int) -> list[str]:
    """Every seat by its compass point, seat 0 in the South (a review, where nobody is "you").

    >>> compass_names(3)
    ['South', 'West', 'East']
    """
    return [_("South"), *_compass(players)[1:]]


def _compass(players: int) -> tuple[str, ...]:
    # Seats are named by compass point with you in the South; play passes to the left
    # (South, West, North, East), which is the order of increasing seat numbers.
    return {
        2: (you_name(), _("North")),
        3: (you_name(), _("West"), _("East")),
        4: (you_name(), _("West"), _("North"), _("East")),
    }[players]


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(template: str, **values: str | int | Text) -> Text:
    """A translated sentence as rich text, its ``{placeholders}`` replaced by ``values`` (coloured cards stay coloured).

    >>> fill("{name} led {card}.", name="East", card=card_text("9H")).plain
    'East led 9♥.'
    """
    parts: list[str | Text] = []
    for index, piece in enumerate(_PLACEHOLDER.split(template)):
        if index % 2 == 0:
            parts.append(piece)
        else:
            value = values[piece]
            parts.append(value if isinstance(value, Text) else str(value))
    return Text.assemble(*parts)


PILE_SHOWN = 8
"""How many of the pile's top cards the table shows."""

TABLE_WIDTH = 78
"""The table's width, so that it does not jump from turn to turn."""


def seat_names(players: int, you: int) -> list[str]:
    """The display name of every seat: ``You`` for yours, compass points for the others."""
    names = _compass(players)
    return [names[(seat - you) % players] for seat in range(players)]


def deals(name: str) -> str:
    """``You deal`` or ``North deals``."""
    return _("You deal") if is_you(name) else _("{name} deals").format(name=name)


def ordinal(place: int) -> str:
    """A place in the order of going out: ``1st``, ``2nd``, ``3rd``, ``4th`` (in words, in some languages)."""
    return (_("1st"), _("2nd"), _("3rd"), _("4th"))[place - 1]


def suit_style(letter: str) -> str:
    return "red" if Suit.parse(letter).is_red else "bold"


def suit_text(letter: str, *, name: bool = False) -> Text:
    """A suit's symbol (and name), coloured: ``♥ hearts``."""
    symbol = Suit.parse(letter).symbol
    return Text(f"{symbol} {suit_name(letter)}" if name else symbol, style=suit_style(letter))


def card_text(code: str, *, style: str = "") -> Text:
    """A card as ``10♠``, its suit coloured; ``style`` is added on top (``bold``, ``dim``, ...)."""
    return Text(Card.parse(code).label, style=f"{suit_style(code[1])} {style}".strip())


def cards_text(codes: Sequence[str]) -> Text:
    return Text(" ").join(card_text(code) for code in codes)


def label(code: str) -> str:
    """The plain label of a card, e.g. ``10♠``."""
    return Card.parse(code).label


_ENTRY = re.compile(r"( {1,4})(\S(?:.*?\S)?)( {2,})(\S.*)")
"""A line of a list of commands: a small indent, the key (its words one space apart), two spaces or more, and what it
does."""

NARROWEST_COLUMN = 24
"""The fewest columns a description is wrapped to beside its key; with fewer, it goes under the key."""


def reflow(text: str, width: int) -> str:
    """``text`` (the ``?`` help: headings, lists of commands, paragraphs, as the catalog lays them out) wrapped to
    ``width`` columns, every line of a command's description under the first, and of a paragraph under its first,
    where the terminal itself would start them at the left edge. The translators' lines stay as written when they fit.

    >>> help = "Keys:\\n  q, quit   stop the game now; the game so far\\n            is saved"
    >>> help += "\\nA paragraph that goes on past"
    >>> print(reflow(help + "\\nthe edge of a narrow terminal.", 36))
    Keys:
      q, quit   stop the game now; the
                game so far is saved
    A paragraph that goes on past the
    edge of a narrow terminal.

    Too narrow for a description beside its key (:data:`NARROWEST_COLUMN`), it goes under it:

    >>> print(reflow(help, 22))
    Keys:
      q, quit
          stop the game
          now; the game so
          far is saved
    A paragraph that goes
    on past
    """
    lines = text.split("\n")
    if all(len(line) <= width for line in lines):
        return text
    blocks: list[tuple[str, int, list[str]]] = []  # each block's first-line prefix, its hanging indent, its text
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        entry = _ENTRY.fullmatch(line)
        last = blocks[-1] if blocks else None
        heading = last is not None and bool(last[2]) and last[2][-1].endswith(":")
        if last is not None and last[2] and line.strip() and indent == last[1] and entry is None and not heading:
            last[2].append(line.strip())  # the same description or paragraph goes on
            continue
        if entry is not None:
            prefix = entry[1] + entry[2] + entry[3]
            blocks.append((prefix, len(prefix), [entry[4]]))
        else:
            blocks.append((" " * indent, indent, [line.strip()] if line.strip() else []))
    wrapped: list[str] = []
    for prefix, hang, words in blocks:
        if not words:
            wrapped.append("")
            continue
        if width - hang < NARROWEST_COLUMN and prefix.strip():  # too narrow beside the key: under it
            key_indent = len(prefix) - len(prefix.lstrip(" "))
            wrapped.append(prefix.rstrip())
            prefix, hang = " " * (key_indent + 4), key_indent + 4
        wrapped += textwrap.wrap(
            " ".join(words),
            width=max(width, hang + 1),
            initial_indent=prefix,
            subsequent_indent=" " * hang,
            break_on_hyphens=False,
        )
    return "\n".join(wrapped)


# --- What happened -----------------------------------------------------------------------------


def describe_trump(name: str, event: ChooseTrump) -> Text:
    """``West chose ♥ hearts as trump.``"""
    if is_you(name):
        return fill(_("You chose {suit} as trump."), suit=suit_text(event.suit, name=True))
    return fill(_("{name} chose {suit} as trump."), name=name, suit=suit_text(event.suit, name=True))


def describe_deal(deal: Deal, notes: Sequence[Notification], names: Sequence[str]) -> list[Text]:
    """The deal and the sixes passed right after it."""
    sizes = {len(hand) for hand in deal.hands}
    if len(sizes) == 1:
        count = sizes.pop()
        lines = [
            Text(
                ngettext(
                    "The cards are dealt: {count} card each.", "The cards are dealt: {count} cards each.", count
                ).format(count=count)
            )
        ]
    else:
        lines = [Text(_("The cards are dealt."))]
    for note in notes:
        if isinstance(note, SixPassed):
            giver, taker = names[note.from_seat], names[note.to_seat]
            if is_you(taker):
                template = _("{name} passed {card} to you (your trump).")
            elif is_you(giver):
                template = _("You passed {card} to {other} (their trump).")
            else:
                template = _("{name} passed {card} to {other} (their trump).")
            lines.append(fill(template, name=giver, other=taker, card=card_text(note.card)))
    return lines


PendingBeat = tuple[str, str]
"""A beat not told yet, as (the card beaten, the card it was beaten with): it is told with the second card."""


def describe_move(name: str, event: Lead | Beat | Second, top: str | None, pending: PendingBeat | None) -> Text:
    """One move in words, a whole sentence. A beat is told with its second card, so ``pending`` carries it over.

    >>> describe_move("East", Second(seat=1, card="7C"), None, ("9H", "JH")).plain
    'East beat 9♥ with J♥ and played 7♣.'
    >>> describe_move("You", Lead(seat=0, card="TS"), None, None).plain
    'You led 10♠.'
    """
    you = is_you(name)
    if isinstance(event, Lead):
        return fill(_("You led {card}.") if you else _("{name} led {card}."), name=name, card=card_text(event.card))
    if isinstance(event, Beat):
        assert top is not None
        template = _("You beat {top} with {card}.") if you else _("{name} beat {top} with {card}.")
        return fill(template, name=name, top=card_text(top), card=card_text(event.card))
    if pending is None:
        return fill(
            _("You played {card}.") if you else _("{name} played {card}."), name=name, card=card_text(event.card)
        )
    beaten, beat_with = pending
    template = (
        _("You beat {top} with {card} and played {second}.")
        if you
        else _("{name} beat {top} with {card} and played {second}.")
    )
    return fill(template, name=name, top=card_text(beaten), card=card_text(beat_with), second=card_text(event.card))


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
    'West took 3 cards: 9♥ J♥ 7♣. 8♠ is on top now.'
    >>> took = Took(seat=1, cards=["8S", "9H", "JH", "7C", "QC"], whole_pile=False)
    >>> describe_notes([took], ["You", "North"], 12, "6S", trumps=["H", "C"])[0].plain
    'North took 5 cards, Q♣ being their trump: 8♠ 9♥ J♥ 7♣ Q♣. 6♠ is on top now.'
    """
    lines: list[Text] = []
    for note in notes:
        if isinstance(note, Took):
            lines.append(_took(note, names[note.seat], top, trumps))
        elif isinstance(note, WentOut):
            name = names[note.seat]
            you = is_you(name)
            template = (
                _("You went out, {place} (move {move}).") if you else _("{name} went out, {place} (move {move}).")
            )
            line = Text(template.format(name=name, place=ordinal(note.place), move=move_number))
            line.stylize("bold green" if you else "bold")
            lines.append(line)
    return lines


def _took(note: Took, name: str, top: str | None, trumps: Sequence[str | None]) -> Text:
    """A take in words: how many cards, why more than three, which, and what is on top now."""
    count = len(note.cards)
    taken_top = note.cards[-1]
    you = is_you(name)
    if note.whole_pile:
        template = (
            ngettext(
                "You took the whole pile, {count} card: {cards}.",
                "You took the whole pile, {count} cards: {cards}.",
                count,
            )
            if you
            else ngettext(
                "{name} took the whole pile, {count} card: {cards}.",
                "{name} took the whole pile, {count} cards: {cards}.",
                count,
            )
        )
    elif note.seat < len(trumps) and trumps[note.seat] == taken_top[1] and count > 3:
        template = (
            ngettext(
                "You took {count} card, {top} being your trump: {cards}.",
                "You took {count} cards, {top} being your trump: {cards}.",
                count,
            )
            if you
            else ngettext(
                "{name} took {count} card, {top} being their trump: {cards}.",
                "{name} took {count} cards, {top} being their trump: {cards}.",
                count,
            )
        )
    else:
        template = (
            ngettext("You took {count} card: {cards}.", "You took {count} cards: {cards}.", count)
            if you
            else ngettext("{name} took {count} card: {cards}.", "{name} took {count} cards: {cards}.", count)
        )
    line = fill(template, name=name, count=count, top=label(taken_top), cards=cards_text(note.cards))
    if top is not None:
        line.append(" ")
        line.append(fill(_("{card} is on top now."), card=card_text(top)))
    return line


# --- The table ---------------------------------------------------------------------------------


def table(
    view: View,
    names: Sequence[str],
    title: str,
    moves: Text,
    width: int = TABLE_WIDTH,
    *,
    tracker: bool = False,
    progress: Text | None = None,
) -> RenderableType:
    """The table as seen from your seat: the others' counts and trumps, the pile, your numbered hand.

    Only what ``view`` shows is drawn: the others appear as card counts (plus the cards
    everybody saw them pick up), never as hands; with ``tracker``, in the duel, the other's
    hand as you can work it out (:func:`tracked_cards`). ``progress`` is a line under the hand.
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
        extra = fill(_("holds {cards}"), cards=cards_text(known)) if known and count else Text("")
        tracked = tracked_cards(view) if tracker else None
        if tracked is not None and count:
            extra = fill(_("holds {cards}"), cards=suits_text(tracked))
        if seat in view.out_order:
            extra = Text(_("went out {place}").format(place=ordinal(view.out_order.index(seat) + 1)), style="green")
        grid.add_row(names[seat], _trump_of(view, seat), "" if seat in view.out_order else _count(count), extra)
    grid.add_row(_("Pile"), "", _count(len(view.pile)) if view.pile else "", _pile_text(view.pile))
    grid.add_row(you_name(), _trump_of(view, you), _count(len(view.hand)), "")
    body: list[RenderableType] = [grid, hand_text(view)]
    if progress is not None:
        body.append(progress)
    body += [Text(""), moves]
    return Panel(Group(*body), title=title, title_align="left", border_style="cyan", width=width)


def _trump_of(view: View, seat: int) -> Text:
    """``trump ♥``: labelled, since a bare suit symbol beside a name does not say what it is."""
    trump = view.trumps[seat]
    return Text("") if trump is None else Text.assemble(Text(_("trump") + " ", style="dim"), suit_text(trump))


def _count(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def _pile_text(pile: Sequence[str]) -> Text:
    if not pile:
        return Text(_("empty"), style="dim")
    shown = pile[-PILE_SHOWN:]
    parts = [Text("… ", style="dim")] if len(pile) > len(shown) else []
    parts.extend(card_text(code, style="dim") + " " for code in shown[:-1])
    parts.append(card_text(shown[-1], style="bold reverse"))
    parts.append(Text(" ◀ " + _("top"), style="dim"))
    return Text.assemble(*parts)


def tracked_cards(view: View) -> list[str] | None:
    """The other hand of a duel, from what ``view`` shows: every card is dealt, so the cards neither in
    your hand nor on the pile (nor out of play) are your opponent's. ``None`` outside the duel.

    >>> from rules.game import Game
    >>> from rules.options import RuleSet
    >>> game = Game(RuleSet(players=2), seed=1)
    >>> for _turn in range(2): _ = game.push(game.legal_moves()[0])  # the two trumps
    >>> _ = game.push(game.sample_deal())
    >>> tracked_cards(game.view(0)) == sorted(game.hand(1), key=_pack_order)
    True
    """
    if view.players != 2 or view.seat is None:
        return None
    gone = {*view.hand, *view.pile, *view.out_of_play}
    theirs = [code for code in codes_of_mask(FULL_PACK_MASK) if code not in gone]
    if len(theirs) != view.hand_counts[1 - view.seat]:
        return None  # a game from a position may hold fewer cards than the pack: nothing to work out then
    return sorted(theirs, key=_pack_order)


def _pack_order(code: str) -> tuple[int, int]:
    return SUIT_CHARS.index(code[1]), RANK_CHARS.index(code[0])


def suits_text(codes: Sequence[str]) -> Text:
    """Cards grouped by suit, as the hand is: ``6♠ J♠  7♥  A♣``."""
    groups = [[code for code in codes if code[1] == suit] for suit in SUIT_CHARS]
    return Text("  ").join(cards_text(group) for group in groups if group)


def progress_text(view: View, names: Sequence[str], move: int, repeats: int) -> Text:
    """How far the hand has come: the move, the cards in each hand and on the pile, and a position come round again.

    >>> from rules.game import Game
    >>> from rules.options import RuleSet
    >>> view = Game(RuleSet(players=2), seed=1).view(0)
    >>> progress_text(view, ["You", "North"], 12, 2).plain
    'Move 12 · cards: You 0, North 0, pile 0 · this position has come up twice: a third time is a draw'
    """
    counts = ", ".join(f"{names[seat]} {view.hand_counts[seat]}" for seat in _you_first(names))
    line = _("Move {move} · cards: {counts}, pile {pile}").format(move=move, counts=counts, pile=len(view.pile))
    if repeats >= core.REPETITIONS_FOR_DRAW - 1:
        line += " · " + _("this position has come up twice: a third time is a draw")
    return Text(line, style="dim")


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
        tail = Text("  " + _("trump"), style="dim") if suit == trump else Text("")
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
        return Text(_("Lead any card (its number, or its name like 10S); {name} must answer it.").format(name=answers))
    if view.phase == "second":
        return Text(_("Now play a second card on it, any card; {name} must answer that one.").format(name=answers))
    top = view.pile[-1]
    trump = view.trumps[you]
    assert trump is not None
    count = core.take_count(Card.parse(top), len(view.pile), SUIT_CHARS.index(trump))
    take = Text.assemble(
        Text(ngettext("take {count} card", "take {count} cards", count).format(count=count), style="bold"),
        f" ({take_key()})",
    )
    if not cards:
        return fill(_("You cannot beat {top}: {take}, or just press Enter."), top=card_text(top), take=take)
    if not can_take:
        return fill(_("Beat {top} with {cards} (must beat: you may not take)."), top=card_text(top), cards=listed)
    return fill(_("Beat {top} with {cards}, or {take}."), top=card_text(top), cards=listed, take=take)


def move_text(event: Event, hand: Sequence[str] = ()) -> Text:
    """A move as a player types it: the card and its number in ``hand`` (if there), or take and its key.

    >>> move_text(Lead(seat=0, card="8H"), ["6S", "8H"]).plain, move_text(Take(seat=0)).plain
    ('8♥ (2)', 'take (t)')
    """
    card = getattr(event, "card", None)
    if card is None:
        return Text.assemble(Text(_("take"), style="bold"), f" ({take_key()})")
    number = f" ({list(hand).index(card) + 1})" if card in hand else ""
    return Text.assemble(card_text(card, style="bold"), number)


def move_value(value: float, exact: bool) -> str:
    """A move's value for the player who makes it: ``wins``, ``draws``, ``loses``, or ``about 60%``."""
    if not exact:
        return _("about {score}").format(score=percent(value))
    if value > 0:
        return pgettext("the value of a move", "wins")
    if value < 0:
        return pgettext("the value of a move", "loses")
    return pgettext("the value of a move", "draws")


OTHERS_SHOWN = 5
"""How many other moves a hint values besides the one it suggests."""


def hint_text(evaluation: Evaluation, hand: Sequence[str], seconds: float) -> Text:
    """A hint with its value: the best move, what it is worth, and what the other moves are worth.

    ``evaluation`` is the position's (exact, or estimated when the solver found nothing within ``seconds``).
    """
    exact = evaluation.kind == "exact"
    if not evaluation.best:  # exact, but no move of the position's value settled within the budget
        return fill(_("hint: the position draws; no move is yet proven to keep the draw."))
    best = evaluation.best[0]
    move = move_text(best, hand)
    if exact and evaluation.value == 1:
        line = fill(_("hint: {move} wins."), move=move)
    elif exact and evaluation.value == 0:
        line = fill(_("hint: {move} draws; nothing wins."), move=move)
    elif exact:
        line = fill(_("hint: {move}; you are lost whatever you do."), move=move)
    else:
        score = max(entry.value for entry in evaluation.moves)
        estimate = ngettext(
            "hint: {move}, about {score} (1 a win, ½ a draw; an estimate from {count} playout: "
            "no exact value within {seconds} s).",
            "hint: {move}, about {score} (1 a win, ½ a draw; an estimate from {count} playouts: "
            "no exact value within {seconds} s).",
            evaluation.samples,
        )
        line = fill(estimate, move=move, score=percent(score), count=evaluation.samples, seconds=number(seconds, None))
    others = [entry for entry in sorted(evaluation.moves, key=lambda entry: -entry.value) if entry.move != best]
    if others and not (exact and evaluation.value == -1):
        listed = Text(", ").join(
            Text.assemble(move_text(entry.move, hand), " ", move_value(entry.value, exact))
            for entry in others[:OTHERS_SHOWN]
        )
        line.append("\n  ")
        line.append(fill(_("Other moves: {moves}."), moves=listed))
    return line


def trump_advice(free: Sequence[str]) -> Text:
    """The hint at the trump choice: any free suit is as good as another, and why."""
    suit = free[0]
    return fill(
        _(
            "hint: {suit} ({key}), or any other free suit: they are worth the same. The trump is chosen "
            "before the deal, and every suit has the same nine cards, so none is a better bet."
        ),
        suit=suit_text(suit, name=True),
        key=suit.lower(),
    )


def take_key() -> str:
    """The short word typed to take, in the language spoken (``t``; English ``t`` works in every language)."""
    return pgettext("the key typed to take", "t")


def outcome_words(outcome: Outcome, names: Sequence[str], last_hand: Sequence[str], top: str | None) -> str:
    """The result in one sentence, from your point of view."""
    if outcome.result == "loss":
        assert outcome.loser is not None
        loser = names[outcome.loser]
        if outcome.reason == "resigned":
            return _("You resigned: you lose this hand.") if is_you(loser) else _("{name} resigned.").format(name=loser)
        if is_you(loser):
            count = len(last_hand)
            return ngettext(
                "You lost: you were left holding {count} card.", "You lost: you were left holding {count} cards.", count
            ).format(count=count)
        return _("{name} lost. You won, {place} out.").format(name=loser, place=ordinal(_place(outcome, names)))
    if outcome.reason == "repetition":
        return _("Draw: the same position came up for the third time.")
    if outcome.reason == "agreement":
        return _("Draw by agreement.")
    if last_hand and top is not None:
        return _("Draw: the last card, {card}, beats {top} on the pile.").format(
            card=label(last_hand[0]), top=label(top)
        )
    return _("Draw by the tie check.")


def _place(outcome: Outcome, names: Sequence[str]) -> int:
    return [names[seat] for seat in outcome.out_order].index(you_name()) + 1


# --- The match ---------------------------------------------------------------------------------


def _you_first(names: Sequence[str]) -> list[int]:
    """The seats in the order of play starting from yours."""
    you = list(names).index(you_name())
    return [(you + step) % len(names) for step in range(len(names))]


def score_text(hands_lost: Sequence[int], draws: int, names: Sequence[str]) -> Text:
    """The match score so far: hands lost by each seat, yours first, and the draws.

    >>> score_text([2, 0, 1], 1, ["North", "West", "You"]).plain
    'Score after 4 hands, hands lost: You 1, North 2, West 0; 1 draw.'
    """
    played = sum(hands_lost) + draws
    each = ", ".join(f"{names[seat]} {hands_lost[seat]}" for seat in _you_first(names))
    score = ngettext(
        "Score after {count} hand, hands lost: {each}", "Score after {count} hands, hands lost: {each}", played
    ).format(count=played, each=each)
    if draws:
        score = ngettext("{score}; {count} draw.", "{score}; {count} draws.", draws).format(score=score, count=draws)
    else:
        score = _("{score}.").format(score=score)
    return Text(score, style="bold")


def match_summary(hands_lost: Sequence[int], draws: int, names: Sequence[str], decided: bool = True) -> list[Text]:
    """The end of a match: hands lost per seat, and who lost the fewest (unless the match is not ``decided``: a
    match of a fixed number of hands stopped before its last, which nobody has won).

    >>> [line.plain for line in match_summary([1, 3], 1, ["You", "North"])]
    ['You lost 1 hand.', 'North lost 3 hands.', 'Draws: 1.', 'You lost the fewest hands: the match is yours!']
    >>> match_summary([1, 0, 0, 0], 0, ["You", "West", "North", "East"])[-1].plain
    'West, North and East share the fewest hands lost.'
    >>> [line.plain for line in match_summary([1, 3], 0, ["You", "North"], decided=False)]
    ['You lost 1 hand.', 'North lost 3 hands.']
    """
    lines = []
    for seat in _you_first(names):
        lost = hands_lost[seat]
        if is_you(names[seat]):
            line = ngettext("You lost {count} hand.", "You lost {count} hands.", lost)
        else:
            line = ngettext("{name} lost {count} hand.", "{name} lost {count} hands.", lost)
        lines.append(Text(line.format(name=names[seat], count=lost)))
    if draws:
        lines.append(Text(_("Draws: {count}.").format(count=draws)))
    if not decided:
        return lines
    fewest = min(hands_lost)
    best = [names[seat] for seat in _you_first(names) if hands_lost[seat] == fewest]
    if len(best) == len(names):
        lines.append(Text(_("All square: everybody lost as many hands."), style="bold"))
    elif best == [you_name()]:
        lines.append(Text(_("You lost the fewest hands: the match is yours!"), style="bold green"))
    elif len(best) == 1:
        lines.append(Text(_("{name} lost the fewest hands and wins the match.").format(name=best[0]), style="bold"))
    else:
        shared = _("{names} and {last} share the fewest hands lost.").format(names=", ".join(best[:-1]), last=best[-1])
        lines.append(Text(shared, style="bold"))
    return lines
