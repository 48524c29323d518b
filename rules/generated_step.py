"""The step of the real transition table, written by ``trumps spec`` from rules/table.py: do not edit.

Regenerate it with ``trumps spec --out spec --docs docs/generated`` after a change of the table.
:func:`rules.step.compile_table` plays through these functions only while ``STEPS_SHA256`` is the
SHA-256 of the code below as :func:`rules.step.python_of_steps` writes it from the table now;
otherwise it walks the table's steps (the same game, slower) and :mod:`rules.core` warns.
"""

from __future__ import annotations

from typing import Final

from rules.core import (
    MOVES_BY_BYTE,
    TAKE,
    State,
    beat_mask,
    beater_keeps_cards,
    count_position,
    draw_by_repetition,
    draw_by_tie_check,
    hand_mask,
    last_card_beats,
    last_holder_loses,
    leaves_one_player,
    pass_turn,
    pile_is_empty,
    play_card,
    take_cards,
    take_mask,
    third_time_round,
)
from rules.step import NOTHING_COUNTED, NoTransition, Undo

STEPS_SHA256: Final = "f42c32be0eceb29715d68593c3004ee9598eaf7d8a21db9577fc814d6a6b6e59"

MOVES_0: Final = MOVES_BY_BYTE[0]
MOVES_1: Final = MOVES_BY_BYTE[1]
MOVES_2: Final = MOVES_BY_BYTE[2]
MOVES_3: Final = MOVES_BY_BYTE[3]
MOVES_4: Final = MOVES_BY_BYTE[4]


def apply(state: State, move: int) -> Undo:
    seat = state.to_act
    phase = state.phase
    pile = state.pile
    hand = state.hands[seat]
    out_order = state.out_order
    outcome = state.outcome
    state.counted = NOTHING_COUNTED
    if move == TAKE:
        if phase == 3:  # respond
            take_cards(state, move)
            pass_turn(state, move)
            count_position(state, move)
            # turn
            if third_time_round(state, move):
                draw_by_repetition(state, move)
                state.phase = 5  # finished
            elif pile_is_empty(state, move):
                state.phase = 2  # lead
            else:
                state.phase = 3  # respond
        else:
            raise NoTransition("take", phase)
    elif phase == 3:  # respond
        if beater_keeps_cards(state, move):
            play_card(state, move)
            state.phase = 4  # second
        elif leaves_one_player(state, move):
            play_card(state, move)
            # tie_check
            if last_card_beats(state, move):
                draw_by_tie_check(state, move)
                state.phase = 5  # finished
            else:
                last_holder_loses(state, move)
                state.phase = 5  # finished
        else:
            play_card(state, move)
            pass_turn(state, move)
            count_position(state, move)
            # turn
            if third_time_round(state, move):
                draw_by_repetition(state, move)
                state.phase = 5  # finished
            elif pile_is_empty(state, move):
                state.phase = 2  # lead
            else:
                state.phase = 3  # respond
    elif phase in (2, 4):  # lead, second
        if leaves_one_player(state, move):
            play_card(state, move)
            # tie_check
            if last_card_beats(state, move):
                draw_by_tie_check(state, move)
                state.phase = 5  # finished
            else:
                last_holder_loses(state, move)
                state.phase = 5  # finished
        else:
            play_card(state, move)
            pass_turn(state, move)
            count_position(state, move)
            # turn
            if third_time_round(state, move):
                draw_by_repetition(state, move)
                state.phase = 5  # finished
            elif pile_is_empty(state, move):
                state.phase = 2  # lead
            else:
                state.phase = 3  # respond
    else:
        raise NoTransition("card", phase)
    return (seat, phase, pile, hand, out_order, outcome, state.counted, state.repeats)


def legal_mask(state: State) -> int:
    phase = state.phase
    if phase == 3:  # respond
        return beat_mask(state) | take_mask(state)
    if phase in (2, 4):  # lead, second
        return hand_mask(state)
    return 0


def legal_moves(state: State) -> tuple[int, ...]:
    phase = state.phase
    if phase == 3:  # respond
        mask = beat_mask(state) | take_mask(state)
        return (
            MOVES_0[mask & 255]
            + MOVES_1[mask >> 8 & 255]
            + MOVES_2[mask >> 16 & 255]
            + MOVES_3[mask >> 24 & 255]
            + MOVES_4[mask >> 32]
        )
    if phase in (2, 4):  # lead, second
        mask = hand_mask(state)
        return (
            MOVES_0[mask & 255]
            + MOVES_1[mask >> 8 & 255]
            + MOVES_2[mask >> 16 & 255]
            + MOVES_3[mask >> 24 & 255]
            + MOVES_4[mask >> 32]
        )
    return ()
