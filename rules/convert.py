"""Between the events and pictures of a game (pydantic models, card codes, suit letters,
phase names) and the lean state of :mod:`rules.core` (integers and bit masks), both ways.

Every such conversion is written here once: suit letters, phase names, the outcome's notification, events
into the data the table's callbacks take, moves back into events, and the notifications of
what the rules reported (:data:`rules.core.News`).

>>> suit_number("D"), suit_letter(2)
(2, 'D')
>>> phase_number("respond"), phase_name(core.RESPOND)
(3, 'respond')
>>> game_over(Outcome.draw("tie_check", (1, 0)))
GameOver(type='game_over', result='draw', loser=None, reason='tie_check')
"""

from __future__ import annotations

from typing import Any, Literal, cast

from rules import core
from rules.cards import CODES, SUIT_CHARS, codes_of_mask, mask_of
from rules.events import (
    Beat,
    ChooseTrump,
    Deal,
    Event,
    GameOver,
    Lead,
    Move,
    Notification,
    Position,
    Resign,
    Second,
    SeenPosition,
    SixPassed,
    SuitCode,
    Take,
    Took,
    TurnPassed,
    WentOut,
)
from rules.options import RuleSet
from rules.outcome import Outcome
from rules.state import PhaseName

CARD_NUMBERS = {code: card for card, code in enumerate(CODES)}
"""Card index by code (``"TS"`` is 4)."""

SUIT_LETTERS: tuple[SuitCode, ...] = ("S", "H", "D", "C")
assert "".join(SUIT_LETTERS) == SUIT_CHARS


def suit_number(letter: str) -> int:
    return SUIT_CHARS.index(letter)


def suit_letter(suit: int) -> SuitCode:
    return SUIT_LETTERS[suit]


def trump_letters(trumps: tuple[int, ...]) -> list[SuitCode | None]:
    """Each seat's trump as a letter, ``None`` until chosen."""
    return [None if suit == core.NO_TRUMP else SUIT_LETTERS[suit] for suit in trumps]


def phase_number(name: str) -> int:
    return core.PHASE_NUMBERS[name]


def phase_name(phase: int) -> PhaseName:
    return cast(PhaseName, core.PHASE_NAMES[phase])


def card_numbers(codes: list[str]) -> list[int]:
    return [CARD_NUMBERS[code] for code in codes]


def position_key(hands: list[list[str]], pile: list[str], to_act: int, phase: str) -> core.PositionKey:
    """A position written with card codes (a ``seen`` entry of a position line) as the engine's key."""
    return core.key_of(
        to_act, phase_number(phase), [mask_of(card_numbers(hand)) for hand in hands], tuple(card_numbers(pile))
    )


def seen_keys(position: Position) -> dict[core.PositionKey, int]:
    """The repetition history a position line carries, as the engine counts it (log format §L4.5)."""
    return {position_key(s.hands, s.pile, s.to_act, s.phase): s.count for s in position.seen or ()}


def seen_positions(seen: dict[core.PositionKey, int], players: int) -> list[SeenPosition]:
    """The engine's repetition history as the ``seen`` entries of a position line (those counted at least once)."""
    entries = []
    for key, count in seen.items():
        if count:
            hands, pile, to_act, phase = core.key_parts(key, players)
            entries.append(
                SeenPosition(
                    hands=[codes_of_mask(hand) for hand in hands],
                    pile=[CODES[card] for card in pile],
                    to_act=to_act,
                    phase=cast(Literal["lead", "respond"], phase_name(phase)),
                    count=count,
                )
            )
    return entries


# --- Outcomes ------------------------------------------------------------------------------


def game_over(outcome: Outcome) -> GameOver:
    """The notification of an ended game: the engine's outcome without the order of going out."""
    return GameOver(result=outcome.result, loser=outcome.loser, reason=outcome.reason)


# --- Events into the data of the table's callbacks, and moves back into events -------------------


def move_of(event: Event) -> int | None:
    """The core move of a play event; ``None`` for the trump choice, the deal and a position."""
    if isinstance(event, Take):
        return core.TAKE
    if isinstance(event, (Lead, Beat, Second)):
        return CARD_NUMBERS[event.card]
    return None


def start_of_position(position: Position, rules: RuleSet) -> core.State:
    """The state a ``position`` event starts (the table's ``adopt_position`` takes it over).

    Seats with no cards have gone out: in the order the position's ``out_order`` gives, else in
    seat order; its ``seen`` is the repetition history before it (log format §L4.4, §L4.5).
    """
    trumps = tuple(suit_number(suit) for suit in position.trumps)
    start = core.State.setup(len(trumps), position.to_act, rules.must_beat, rules.pass_sixes)
    start.trumps = trumps
    start.hands = [mask_of(card_numbers(hand)) for hand in position.hands]
    start.pile = tuple(card_numbers(position.pile))
    start.phase = phase_number(position.phase)
    gone = position.out_order
    start.out_order = (
        tuple(seat for seat, hand in enumerate(position.hands) if not hand) if gone is None else tuple(gone)
    )
    start.seen = seen_keys(position)
    return start


def event_data(event: Event, rules: RuleSet) -> Any:
    """What the table's callbacks take for ``event``: a move, a suit, the dealt hands or a start state."""
    if isinstance(event, ChooseTrump):
        return suit_number(event.suit)
    if isinstance(event, Deal):
        return [mask_of(card_numbers(hand)) for hand in event.hands]
    if isinstance(event, Position):
        return start_of_position(event, rules)
    if isinstance(event, Resign):
        return event.seat
    return move_of(event)


# Every play event exists once per seat and card; legal moves hand out these shared,
# immutable objects instead of building new ones each time.
_PLAY_EVENTS: dict[str, list[list[Move]]] = {
    kind: [[model(seat=seat, card=code) for code in CODES] for seat in range(4)]
    for kind, model in (("lead", Lead), ("beat", Beat), ("second", Second))
}
# The legal take says how many cards it takes (a log writer may add "count").
_TAKE_EVENTS = [{count: Take(seat=seat, count=count) for count in range(1, 37)} for seat in range(4)]


def move_events(state: core.State, mask: int, table: core.Compiled = core.RULES) -> list[Event]:
    """The events of the moves in ``mask`` for the player to act: cards in pack order, the take last."""
    seat = state.to_act
    moves: list[Event] = []
    cards = mask & ~core.TAKE_BIT
    if cards:
        kind = core.move_kind(state.phase, 0, table)
        assert kind is not None
        events = _PLAY_EVENTS[kind][seat]
        moves += [events[card] for card in core.moves_of_mask(cards)]
    if mask & core.TAKE_BIT:
        pile = state.pile
        moves.append(_TAKE_EVENTS[seat][core.take_count(pile[-1], len(pile), state.trumps[seat])])
    return moves


# --- Notifications: what the rules did on their own, as they reported it --------------------------


def notifications(event: Event, news: list[core.News], after: core.State, known: list[int]) -> list[Notification]:
    """What ``event`` made the rules do: the ``news`` its callbacks reported, then how the game goes on
    (read off the state ``after`` it); updates the public knowledge ``known``."""
    notes: list[Notification] = []
    for item in news:
        if isinstance(item, core.SixPassed):
            known[item.receiver] |= 1 << item.card
            notes.append(SixPassed(card=CODES[item.card], from_seat=item.giver, to_seat=item.receiver))
        elif isinstance(item, core.Took):
            known[item.seat] |= mask_of(item.cards)
            notes.append(Took(seat=item.seat, cards=[CODES[c] for c in item.cards], whole_pile=not after.pile))
        else:
            notes.append(WentOut(seat=item.seat, place=item.place))
    move = move_of(event)
    if move is None:
        if after.outcome is not None:  # a resignation or an agreed draw
            notes.append(game_over(after.outcome))
        return notes
    seat = event.seat  # type: ignore[union-attr]
    if move != core.TAKE:
        known[seat] &= ~(1 << move)
    if after.outcome is not None:
        notes.append(game_over(after.outcome))
    elif after.to_act != seat:
        notes.append(TurnPassed(seat=after.to_act, phase="lead" if after.phase == core.LEAD else "respond"))
    return notes
