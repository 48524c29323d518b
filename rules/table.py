"""The transition table: the one place that says which phase comes next and who acts.

Every row reads *trigger, source, destination, conditions, callbacks*. For one trigger
in one source state the rows are tried in order; the first whose conditions all hold is
taken: its callbacks run, in order, and the machine enters its destination. Conditions
and callbacks are names of functions of :mod:`rules.core`, called as ``f(state, move)``:
a condition is a pure question about the state and the incoming move (it changes
nothing), a callback does the work of one rule. Every group of rows ends with a row
without conditions, so a trigger the table lists for a state always finds its row.

Nothing else says the order of phases. :mod:`rules.step` compiles the table into the
step that :class:`rules.game.Game` and search (:func:`rules.core.apply`) both play
through, and :mod:`rules.machine` builds the ``transitions`` machine of the same rows,
the declared model of the phases that the state chart is drawn from.

A **transient** state is left within the same event, by its automatic trigger
(:data:`AUTOMATIC`): the passing of sixes after the deal, the tie check when one player
is left holding cards, and the new turn after a move that passes it. No log, state or
position shows one.
"""

from __future__ import annotations

from typing import NamedTuple


class Row(NamedTuple):
    """One transition of the table."""

    trigger: str
    source: str
    dest: str
    conditions: tuple[str, ...] = ()
    callbacks: tuple[str, ...] = ()


STATES = ("trump_choice", "deal", "lead", "respond", "second", "finished", "sixes", "tie_check", "turn")
"""Every state, in the order of :data:`rules.core.PHASE_NAMES` (the phase numbers) and then the transient ones."""

INITIAL = "trump_choice"

AUTOMATIC = {"sixes": "pass_sixes", "tie_check": "tie_check", "turn": "turn"}
"""Transient states and the trigger each fires on entry, within the same event."""

PLAY = ("lead", "beat", "second", "take")
"""The triggers of moves in play (the search path's moves)."""

ENDINGS = ("resign", "agree_draw")
"""The triggers of the ends the players decide on (§3.4): events of a game, never moves of search."""

TURN = ("pass_turn", "count_position")
"""The callbacks of a move that ends a turn: the turn passes, and the position it starts in is counted (§3).

Such a move enters the transient state ``turn``, whose rows decide what the new turn is."""

TRANSITIONS: tuple[Row, ...] = (
    # Setup (rules §2.1, §2.2): a position instead of all of it, or trump choice, deal, sixes.
    Row("position", "trump_choice", "lead", ("position_leads",), ("adopt_position", "count_position")),
    Row("position", "trump_choice", "respond", ("position_responds",), ("adopt_position", "count_position")),
    Row("position", "trump_choice", "second", (), ("adopt_position",)),
    Row("choose_trump", "trump_choice", "deal", ("last_trump_choice",), ("record_trump",)),
    Row("choose_trump", "trump_choice", "trump_choice", (), ("record_trump",)),
    Row("deal", "deal", "sixes", (), ("deal_hands",)),
    Row("pass_sixes", "sixes", "lead", ("rule_passes_sixes",), ("pass_sixes", "count_position")),
    Row("pass_sixes", "sixes", "lead", (), ("count_position",)),
    # Play (§2.3-§2.6): who answers, the second card, going out.
    Row("lead", "lead", "tie_check", ("leaves_one_player",), ("play_card",)),
    Row("lead", "lead", "turn", (), ("play_card", *TURN)),
    Row("beat", "respond", "second", ("beater_keeps_cards",), ("play_card",)),
    Row("beat", "respond", "tie_check", ("leaves_one_player",), ("play_card",)),
    Row("beat", "respond", "turn", (), ("play_card", *TURN)),
    Row("second", "second", "tie_check", ("leaves_one_player",), ("play_card",)),
    Row("second", "second", "turn", (), ("play_card", *TURN)),
    Row("take", "respond", "turn", (), ("take_cards", *TURN)),
    # A new turn (§2.7, §3): the third time round draws; on an empty pile the player leads, else answers.
    Row("turn", "turn", "finished", ("third_time_round",), ("draw_by_repetition",)),
    Row("turn", "turn", "lead", ("pile_is_empty",), ()),
    Row("turn", "turn", "respond", (), ()),
    # One player left holding cards (§3).
    Row("tie_check", "tie_check", "finished", ("last_card_beats",), ("draw_by_tie_check",)),
    Row("tie_check", "tie_check", "finished", (), ("last_holder_loses",)),
    # The players end the game themselves, at any moment of play (§3.4): a resignation, a draw agreed.
    *(Row("resign", phase, "finished", (), ("resigner_loses",)) for phase in ("lead", "respond", "second")),
    *(Row("agree_draw", phase, "finished", (), ("draw_by_agreement",)) for phase in ("lead", "respond", "second")),
)
"""The rules' order of phases, row by row (see the module docstring for how a row is read)."""
