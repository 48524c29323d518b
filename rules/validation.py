"""Why an event is refused: a deal, a position or a move that the rules do not allow, as data.

Each function answers with a :class:`rules.refusal.Refusal` (a stable code, the rule's
clause, the seats and cards involved) or ``None``; :class:`rules.game.Game` asks them before
it plays an event, so that a refused event changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import CODES, FULL_PACK_MASK, PACK_SIZE, RANKS_PER_SUIT, mask_of
from rules.core import BEATERS, LEAD, PHASE_NAMES, RESPOND, SECOND, TAKE_BIT, State, moves_of_mask
from rules.refusal import Refusal, counted, refuse
from rules.step import Compiled


def deal_error(hands: Sequence[Sequence[int]], players: int) -> Refusal | None:
    """Why ``hands`` is not a deal of the whole pack to ``players`` seats, or ``None``."""
    if len(hands) != players:
        return refuse("deal_hands", "2.2", f"the deal has {counted(len(hands), 'hand')} for {players} players")
    size = PACK_SIZE // players
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            cards = counted(len(hand), "card")
            return refuse("deal_hand_size", "2.2", f"the deal gives {{s0}} {cards}, not {size}", seats=(seat,))
    seen: set[int] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                return refuse("deal_card_twice", "2.2", "the deal has {c0} twice", cards=(CODES[card],))
            seen.add(card)
    return None


def position_error(
    trumps: Sequence[int], hands: Sequence[Sequence[int]], pile: Sequence[int], to_act: int, phase: int
) -> Refusal | None:
    """Why a position (log format §L4.3) is refused, or ``None`` when it is a valid start."""
    if len(trumps) != len(hands):
        sizes = f"{counted(len(trumps), 'trump')} for {counted(len(hands), 'hand')}"
        return refuse("position_size", "1", f"the position has {sizes}")
    if len(set(trumps)) != len(trumps):
        return refuse("position_same_trump", "2.1", "two seats have the same trump suit")
    seen: set[int] = set()
    for card in [card for hand in hands for card in hand] + list(pile):
        if card in seen:
            return refuse("position_card_twice", "1", "{c0} appears more than once", cards=(CODES[card],))
        seen.add(card)
    if sum(1 for hand in hands if hand) < 2:
        return refuse("position_one_holder", "3", "fewer than two seats hold cards")
    if not 0 <= to_act < len(hands):
        return refuse("position_to_act", "1", f"to_act {to_act} is not a seat")
    if not hands[to_act]:
        return refuse("position_to_act_out", "1", "{s0} is to act but holds no cards", seats=(to_act,))
    if phase not in (LEAD, RESPOND, SECOND):
        return refuse("position_phase", "1", "the phase must be lead, respond or second")
    if (phase == LEAD) != (not pile):
        return refuse("position_pile", "2.3", "the pile must be empty exactly when the phase is lead")
    return None


def ending_error(state: State, kind: str, seat: int | None, table: Compiled) -> Refusal | None:
    """Why a resignation by ``seat`` (``kind`` ``resign``) or an agreed draw (``agree_draw``) is refused now (§3.4).

    The phases that take one are those where ``table`` (the compiled rules the game plays by) has a row for it.
    """
    if kind not in table.triggers[state.phase]:
        if any(state.hands):
            return no_transition(kind, state.phase, seat)
        words = {"resign": "{s0} cannot resign", "agree_draw": "the game cannot be drawn by agreement"}[kind]
        return refuse("before_play", "3.4", f"{words}: the cards have not been dealt", seat=seat)
    if seat is not None and seat in state.out_order:
        if kind == "resign":
            return refuse("resign_out", "3.4.1", "{s0} cannot resign: {s0} has gone out", seat=seat)
        return refuse("draw_out", "3.4.2", "{s0} has gone out and has no say in a draw", seat=seat)
    return None


def no_transition(trigger: str, phase: int, seat: int | None) -> Refusal:
    """The table has no row for ``trigger`` in ``phase``: the refusal when no rule says more of the event."""
    return refuse(
        "no_transition", "1", f"the rules take no {trigger} event in phase {PHASE_NAMES[phase]}", seat=seat, seats=()
    )


VERBS = {"lead": "lead", "beat": "beat", "second": "play a second card", "take": "take"}
CLAUSES = {"lead": "2.3", "beat": "2.4", "second": "2.5", "take": "2.6"}

_MUST = {
    LEAD: ("2.3", "the pile is empty, {s0} must lead"),
    RESPOND: ("2.4", "{s0} must beat {c0} or take"),
    SECOND: ("2.5", "{s0} must play a second card on its beating card"),
}


def move_refusal(state: State, seat: int, kind: str, card: int | None, table: Compiled) -> Refusal:
    """The rule that refuses ``seat``'s move ``kind`` (``lead``, ``beat``, ``second``, ``take``) with ``card``.

    Only meaningful for a move that ``table`` (the compiled rules the game plays by) does not allow.
    """
    verb = VERBS[kind]  # a finished game is refused before (rules.game.Game.refusal): every event is
    if seat != state.to_act:
        return refuse(
            "not_your_turn", "1", f"{{s0}} cannot {verb}: it is {{p1}} turn", seat=seat, seats=(seat, state.to_act)
        )
    top = CODES[state.pile[-1]] if state.pile else None
    if kind not in table.triggers[state.phase]:
        clause, must = _MUST.get(state.phase, ("1", f"the rules have no {kind} in phase {PHASE_NAMES[state.phase]}"))
        cards = () if top is None else (top,)
        return refuse("wrong_move", clause, f"{{s0}} cannot {verb}: {must}", seat=seat, cards=cards)
    if kind == "take":
        beaters = tuple(CODES[c] for c in moves_of_mask(table.legal_mask(state) & ~TAKE_BIT))
        listed = ", ".join(f"{{c{i}}}" for i in range(1, len(beaters) + 1))
        return refuse(
            "must_beat",
            "2.6",
            "{s0} cannot take: rule must_beat, and {c0} can be beaten with " + listed,
            seat=seat,
            cards=(CODES[state.pile[-1]], *beaters),
        )
    assert card is not None
    if not state.hands[seat] >> card & 1:
        return refuse(
            "not_in_hand",
            CLAUSES[kind],
            f"{{s0}} cannot {verb} {{c0}}: {{c0}} is not in {{p0}} hand",
            seat=seat,
            cards=(CODES[card],),
        )
    return beat_refusal(seat, card, state.pile[-1], state.trumps[seat])


def beat_refusal(seat: int, card: int, top: int, trump: int) -> Refusal:
    """Why ``card`` does not beat ``top`` for ``seat``, whose trump is ``trump`` (§2.4).

    Each reason claims a rule of a group of cards that holds ``card``: none of them beats ``top`` ("7S is lower
    than KS": no lower spade beats the king). It is given when :data:`rules.core.BEATERS`, built from
    :func:`rules.core.beats`, bears the claim out, so that with ``beats`` edited no sentence says the old rule;
    when none does, the refusal says only that ``card`` does not beat ``top``.

    >>> from rules.cards import Card
    >>> beat_refusal(1, Card.parse("7S"), Card.parse("KS"), trump=1).message
    'seat 1 cannot beat KS with 7S: 7S is lower than KS'
    """
    suit = top // RANKS_PER_SUIT
    end = (suit + 1) * RANKS_PER_SUIT  # past the top's suit
    higher = _cards_between(top + 1, end)
    other_suits = FULL_PACK_MASK & ~_suit_cards(suit) & ~_suit_cards(trump)
    reasons = (
        ("lower_card", _cards_between(suit * RANKS_PER_SUIT, top), ": {c1} is lower than {c0}"),
        (
            "higher_trump_only",
            FULL_PACK_MASK & ~higher if suit == trump else 0,
            ": {c0} is your trump, only a higher trump beats it",
        ),
        ("not_suit_nor_trump", other_suits, ": not the same suit and not your trump"),
    )
    beaters = BEATERS[trump][top]
    prefix = "{s0} cannot beat {c0} with {c1}"
    involved = (CODES[top], CODES[card])
    for code, group, reason in reasons:
        if group >> card & 1 and not group & beaters:
            return refuse(code, "2.4", prefix + reason, seat=seat, cards=involved)
    return refuse("does_not_beat", "2.4", prefix + ": {c1} does not beat {c0}", seat=seat, cards=involved)


def _cards_between(first: int, end: int) -> int:
    """The mask of the cards from ``first`` up to, not including, ``end``."""
    return mask_of(range(first, end))


def _suit_cards(suit: int) -> int:
    """The mask of the cards of ``suit``."""
    return _cards_between(suit * RANKS_PER_SUIT, (suit + 1) * RANKS_PER_SUIT)
