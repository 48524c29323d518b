"""The machine table is well formed: every phase a state, no trigger that can fail silently."""

from __future__ import annotations

from itertools import groupby

from rules import core
from rules.events import ChooseTrump
from rules.game import Game
from rules.machine import MACHINE, STATES, TRANSITIONS, GameModel
from rules.options import RuleSet


def test_every_phase_of_the_contract_is_a_state() -> None:
    assert set(core.PHASE_NAMES) <= set(STATES)
    assert {"taking", "tie_check"} <= set(STATES)


def test_every_condition_is_a_method_of_the_model() -> None:
    for _, _, _, condition in TRANSITIONS:
        if condition is not None:
            assert callable(getattr(GameModel, condition)), condition


def test_every_trigger_group_ends_with_an_unconditional_row() -> None:
    rows = sorted(TRANSITIONS, key=lambda row: (row[0], row[1]))
    for (trigger, source), group in groupby(rows, key=lambda row: (row[0], row[1])):
        in_table_order = [row for row in TRANSITIONS if (row[0], row[1]) == (trigger, source)]
        assert in_table_order[-1][3] is None, f"{trigger} from {source} can fail"
        assert all(row[3] is not None for row in in_table_order[:-1])
        assert len(list(group)) == len(in_table_order)


def test_the_machine_is_built_from_the_table() -> None:
    assert set(MACHINE.states) == set(STATES)
    declared = {(trigger, source, dest) for trigger, source, dest, _ in TRANSITIONS}
    built = {
        (name, source, transition.dest)
        for name, event in MACHINE.events.items()
        for source, transitions in event.transitions.items()
        for transition in transitions
    }
    assert built == declared


def test_machine_state_follows_the_rules_through_a_whole_game() -> None:
    game = Game(RuleSet(players=3, dealer=2), seed=11)
    for seat, suit in ((0, "C"), (1, "D"), (2, "H")):
        game.push(ChooseTrump(seat=seat, suit=suit))
    game.push(game.sample_deal())
    while not game.is_over():
        game.push(game.legal_moves()[-1])
        assert game._model.state == game.phase
    assert game._model.state == "finished"
    while game.events:
        game.pop()
        assert game._model.state == game.phase
    assert game.phase == "trump_choice"
