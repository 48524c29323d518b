"""What a seat knows, turned into :mod:`rules.core` states for search.

A bot sees only its :class:`~rules.state.View`. In the duel that is enough to rebuild
the whole position: every card is in the bot's hand, in the pile, out of play, or in
the other hand. With three or four players the other hands are hidden; what is known
is each hand's size and the cards it publicly picked up (``view.known``), and
:func:`sample_state` deals the rest of the unseen cards at random to fill them
(a *determinization*).

Rebuilt states start with an empty repetition history: the view does not carry the
positions of the past, so repetition counts start at the current position.

>>> from rules.cards import codes_of_mask
>>> from rules.events import Position
>>> from rules.game import Game
>>> game = Game.from_position(Position(trumps=["S", "H"], hands=[["AS", "7D"], ["KH"]], pile=["9C", "JC"],
...                                    to_act=1, phase="respond"))
>>> state = duel_state(game.view(1))          # seat 1 deduces seat 0's hand
>>> codes_of_mask(state.hands[0]), codes_of_mask(state.hands[1])
(['AS', '7D'], ['KH'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules import convert, core
from rules.cards import FULL_PACK_MASK, SUIT_CHARS, Card, mask_of
from rules.events import Event
from rules.state import View

__all__ = [
    "card_mask",
    "duel_state",
    "event_of",
    "sample_state",
    "state_of_view",
    "unseen_mask",
]


def card_mask(codes: Iterable[str]) -> int:
    """The bit mask of card codes."""
    return mask_of(Card.parse(code) for code in codes)


def event_of(view: View, move: int) -> Event:
    """The event among ``view.legal_moves`` that plays the core ``move``."""
    for event in view.legal_moves:
        if convert.move_of(event) == move:
            return event
    raise ValueError(f"{core.move_code(move)} is not a legal move of seat {view.seat}")


def _trumps(view: View) -> list[int]:
    return [SUIT_CHARS.index(suit) for suit in view.trumps if suit is not None]


def _check_in_play(view: View) -> None:
    if view.seat is None or view.phase not in ("lead", "respond", "second"):
        raise ValueError(f"no position to search: phase {view.phase}, seat {view.seat}")


def unseen_mask(view: View) -> int:
    """The cards this seat cannot place: not in its hand, the pile, out of play, or publicly known elsewhere."""
    seen = card_mask(view.hand) | card_mask(view.pile) | card_mask(view.out_of_play)
    for known in view.known:
        seen |= card_mask(known)
    return FULL_PACK_MASK & ~seen


def duel_state(view: View) -> core.State:
    """The exact position of a duel seen from one seat (the other hand is everything else)."""
    _check_in_play(view)
    assert view.seat is not None
    if view.players != 2:
        raise ValueError(f"only a duel's view determines the position, not a {view.players}-player view")
    mine = card_mask(view.hand)
    other = FULL_PACK_MASK & ~(mine | card_mask(view.pile) | card_mask(view.out_of_play))
    hands = [0, 0]
    hands[view.seat] = mine
    hands[1 - view.seat] = other
    return _state(view, hands)


def sample_state(view: View, rng: random.Random) -> core.State:
    """A position consistent with everything the seat has seen: hidden cards dealt at random.

    Each other seat keeps its publicly known cards and receives random unseen cards up
    to its public hand count. In the duel this is the exact position.
    """
    _check_in_play(view)
    assert view.seat is not None
    if view.players == 2:
        return duel_state(view)
    pool = list(core.moves_of_mask(unseen_mask(view)))
    rng.shuffle(pool)
    hands = []
    for seat in range(view.players):
        if seat == view.seat:
            hands.append(card_mask(view.hand))
            continue
        hand = card_mask(view.known[seat])
        missing = view.hand_counts[seat] - hand.bit_count()
        hand |= mask_of(pool[:missing])
        del pool[:missing]
        hands.append(hand)
    return _state(view, hands)


def state_of_view(view: View, rng: random.Random | None = None) -> core.State:
    """The duel's exact state, or (3–4 players) one determinization drawn with ``rng``."""
    if view.players == 2:
        return duel_state(view)
    return sample_state(view, rng if rng is not None else random.Random(0))


def _state(view: View, hands: list[int]) -> core.State:
    assert view.to_act is not None
    phase = core.PHASE_NAMES.index(view.phase)
    return core.State.from_position(
        _trumps(view),
        [list(core.moves_of_mask(hand)) for hand in hands],
        [Card.parse(code) for code in view.pile],
        view.to_act,
        phase,
        view.rules.must_beat,
        view.out_order,
    )
