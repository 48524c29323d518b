"""Positions that resume a game: the ``out_order`` and ``seen`` of a ``position`` line (log format §L4.5).

A ``position`` line alone starts a fresh game from its cards. With the order of going out
so far and the repetition history (the positions that arose earlier, with their counts)
it resumes a game exactly: :func:`position_of` writes such a line for a game in play, and
replaying it after the game's header gives the same legal moves, the same outcome and the
same repetition draws as playing on in the original game.

>>> from rules.events import event_json
>>> from rules.log import read_log
>>> game = read_log(['{"type": "start"}',
...     '{"type": "position", "trumps": ["S", "H"], "hands": [["7D", "AS"], ["9D", "6C", "8D", "KH"]],'
...     ' "pile": [], "to_act": 0, "phase": "lead"}'])
>>> for event in game.legal_moves()[:1]:
...     _ = game.push(event)
>>> print(event_json(position_of(game)))  # seat 0 led AS; the start is remembered once
{"type":"position","trumps":["S","H"],"hands":[["7D"],["KH","8D","9D","6C"]],"pile":["AS"],"to_act":1,"phase":"respond","seen":[{"hands":[["AS","7D"],["KH","8D","9D","6C"]],"pile":[],"to_act":0,"phase":"lead","count":1}]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import convert, core
from rules.cards import CODES, codes_of_mask
from rules.events import Position
from rules.refusal import Refusal, refuse

if TYPE_CHECKING:
    from rules.game import Game

_RESUMING = ("lead", "respond", "second")


def resume_error(position: Position) -> Refusal | None:
    """Why a position's ``out_order`` or ``seen`` is refused (log format §L4.5), or ``None``."""
    players = len(position.hands)
    empty = [seat for seat, hand in enumerate(position.hands) if not hand]
    order = position.out_order
    if order is not None and sorted(order) != empty:
        return refuse(
            "position_out_order", "3.1", f"out_order {order} must list each seat with an empty hand once ({empty})"
        )
    keys: set[core.PositionKey] = set()
    for index, seen in enumerate(position.seen or ()):  # numbered from 0, as a field's path names it (seen.0.count)
        if len(seen.hands) != players or seen.to_act >= players:
            return refuse("position_seen", "3.3", f"seen.{index}: not a position of a {players}-player game")
        cards = [card for hand in seen.hands for card in hand] + seen.pile
        if len(set(cards)) != len(cards):
            return refuse("position_seen", "3.3", f"seen.{index}: a card more than once")
        key = convert.position_key(seen.hands, seen.pile, seen.to_act, seen.phase)
        if key in keys:
            return refuse("position_seen", "3.3", f"seen.{index}: the same position as an earlier one")
        keys.add(key)
    if position.phase != "second":
        own = convert.seen_keys(position).get(
            convert.position_key(position.hands, position.pile, position.to_act, position.phase), 0
        )
        if own >= core.REPETITIONS_FOR_DRAW - 1:
            return refuse(
                "position_seen",
                "3.3.3",
                f"the position has already arisen {own} times: the game is drawn (rules §3.3.3)",
            )
    return None


def state_position(state: core.State) -> Position:
    """The ``position`` line of a core state in play: its cards, seat to act and phase, nothing seen before it."""
    return Position(
        trumps=[convert.suit_letter(suit) for suit in state.trumps],
        hands=[codes_of_mask(hand) for hand in state.hands],
        pile=[CODES[card] for card in state.pile],
        to_act=state.to_act,
        phase=convert.phase_name(state.phase),  # type: ignore[arg-type]
    )


def position_of(game: Game) -> Position:
    """A ``position`` line that resumes ``game`` exactly, with its order of going out and repetition history.

    Raises :class:`ValueError` unless the game is in play (phase ``lead``, ``respond`` or ``second``).
    """
    if game.phase not in _RESUMING:
        raise ValueError(f"a position resumes a game in play, not one in phase {game.phase}")
    state = game.core_state()
    earlier = dict(state.seen)
    if state.phase != core.SECOND:
        earlier[state.key()] -= 1  # the position counts itself again when it is replayed (rules §3.3.5)
    default_order = [seat for seat, hand in enumerate(state.hands) if not hand]
    return state_position(state).model_copy(
        update={
            "out_order": None if list(state.out_order) == default_order else list(state.out_order),
            "seen": convert.seen_positions(earlier, state.players) or None,
        }
    )
