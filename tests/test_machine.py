"""The transition table governs the game: both paths read it, and a changed row changes the game."""

from __future__ import annotations

import random
from itertools import groupby

import pytest

from rules import core
from rules.events import ChooseTrump, Lead, Position
from rules.game import Game, IllegalEvent
from rules.machine import MACHINE, build_machine
from rules.options import RuleSet
from rules.table import AUTOMATIC, STATES, TRANSITIONS, Row


def test_every_phase_of_the_contract_is_a_state() -> None:
    assert set(core.PHASE_NAMES) == set(STATES)
    assert set(AUTOMATIC) <= set(STATES)


def test_every_condition_and_callback_is_a_function_of_core() -> None:
    for row in TRANSITIONS:
        for name in (*row.conditions, *row.callbacks):
            assert callable(getattr(core, name)), name


def test_every_trigger_group_ends_with_an_unconditional_row() -> None:
    rows = sorted(TRANSITIONS, key=lambda row: (row.trigger, row.source))
    for (trigger, source), group in groupby(rows, key=lambda row: (row.trigger, row.source)):
        in_table_order = [row for row in TRANSITIONS if (row.trigger, row.source) == (trigger, source)]
        assert not in_table_order[-1].conditions, f"{trigger} from {source} can fail"
        assert all(row.conditions for row in in_table_order[:-1])
        assert len(list(group)) == len(in_table_order)


def test_a_malformed_table_is_refused() -> None:
    rows = [row for row in TRANSITIONS if (row.trigger, row.dest) != ("beat", "turn")]
    with pytest.raises(ValueError, match="must end with exactly one unconditional row"):
        core.compile_table(rows)


@pytest.mark.parametrize("rows", ["the table", "a generator of its rows"])
def test_the_machine_is_built_from_the_table(rows: str) -> None:
    machine = MACHINE if rows == "the table" else build_machine(row for row in TRANSITIONS)
    assert set(machine.states) == set(STATES)
    declared = {(row.trigger, row.source, row.dest, row.conditions, row.callbacks) for row in TRANSITIONS}
    built = {
        (
            name,
            source,
            transition.dest,
            tuple(condition.func.__name__ for condition in transition.conditions),
            tuple(callback.__name__ for callback in transition.before),  # the chart's labels
        )
        for name, event in machine.events.items()
        for source, transitions in event.transitions.items()
        for transition in transitions
    }
    assert built == declared


def _dealt(players: int = 2, seed: int = 11, machine: core.Compiled | None = None) -> Game:
    rules = RuleSet(players=players, dealer=players - 1)
    game = Game(rules, seed=seed) if machine is None else Game(rules, seed=seed, machine=machine)  # type: ignore[arg-type]
    for suit in "CDHS"[:players]:
        game.push(ChooseTrump(seat=game.to_act, suit=suit))  # type: ignore[arg-type]
    game.push(game.sample_deal())
    return game


def test_machine_state_is_the_phase_through_a_whole_game() -> None:
    game = _dealt(players=3)
    lens = MACHINE.lens
    while not game.is_over():
        game.push(game.legal_moves()[-1])
        lens.core = game._state
        assert lens.state == game.phase
    assert lens.state == "finished"
    while game.events:
        game.pop()
        assert lens.state == game.phase
    assert game.phase == "trump_choice"
    lens.core = core.State.setup(2, 0)


def test_asking_may_changes_nothing() -> None:
    game = _dealt()
    state = game._state
    card = core.legal_moves(state)[0]
    before = (game.state(), state.key(), dict(state.seen))
    for _ in range(3):
        assert MACHINE.may(state, "lead", card)
    assert (game.state(), state.key(), dict(state.seen)) == before
    assert not MACHINE.may(state, "beat", card)  # no row of beat leaves lead
    assert game.pile == []


def test_an_event_the_table_cannot_take_is_refused_with_the_rule() -> None:
    game = _dealt()
    with pytest.raises(IllegalEvent) as refused:
        game.push(game.legal_moves()[0].model_copy(update={"type": "beat"}))
    assert refused.value.refusal.code == "wrong_move"
    assert refused.value.refusal.clause == "2.3"
    assert game.pile == []


def test_a_failing_event_leaves_the_game_exactly_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(state: core.State, move: object) -> None:
        state.to_act = (state.to_act + 1) % state.players  # half the work, then a failure
        raise RuntimeError("a rule that breaks")

    monkeypatch.setattr(core, "pass_turn", broken)
    machine = build_machine()
    machine.compiled = core.compile_table(TRANSITIONS)  # compiled with the broken rule
    game = _dealt(machine=machine)  # type: ignore[arg-type]
    state = game._state
    before = (game.state(), game.view(None), state.key(), dict(state.seen), state.out_order, len(game.events))
    with pytest.raises(RuntimeError, match="breaks"):
        game.push(game.legal_moves()[0])
    assert (game.state(), game.view(None), state.key(), dict(state.seen), state.out_order, len(game.events)) == before


def test_a_position_enters_the_machine_like_any_event() -> None:
    position = Position(trumps=["S", "H"], hands=[["AS"], ["6H", "7H"]], pile=["6D"], to_act=1, phase="respond")
    game = Game.from_position(position)
    assert (game.phase, game.to_act) == ("respond", 1)
    assert game._state.seen == {(1, core.RESPOND, 1 << 8, 1 << 9 | 1 << 10, 18): 1}


# --- A variant table: no second card. After a beat the next player answers the beating card. ---

NO_SECOND = tuple(
    row for row in TRANSITIONS if row.trigger != "second" and (row.trigger, row.dest) != ("beat", "second")
)


def _play_both(seed: int, rows: tuple[Row, ...]) -> list[str]:
    """Play one random game through Game on the machine of ``rows`` and through search compiled from
    them, checking move for move that both agree; returns the phases Game went through."""
    machine = build_machine(rows)
    compiled = core.compile_table(rows)
    rng = random.Random(seed)
    game = _dealt(players=2 + seed % 3, seed=seed, machine=machine)  # type: ignore[arg-type]
    state = game.core_state()
    phases = [game.phase]
    while not game.is_over() and len(phases) < 400:
        moves = game.legal_moves()
        assert [core.TAKE if m.type == "take" else core.Card.parse(m.card) for m in moves] == list(  # type: ignore[union-attr]
            core.moves_of_mask(compiled.legal_mask(state))
        )
        move = moves[int(rng.random() * len(moves))]
        game.push(move)
        compiled.apply(state, core.TAKE if move.type == "take" else core.Card.parse(move.card))  # type: ignore[union-attr]
        ours = game._state
        assert (ours.hands, ours.pile, ours.to_act, ours.phase, ours.out_order, ours.outcome, ours.counted) == (
            state.hands,
            state.pile,
            state.to_act,
            state.phase,
            state.out_order,
            state.outcome,
            state.counted,
        )
        phases.append(game.phase)
    assert game._state.seen == state.seen
    return phases


@pytest.mark.parametrize("seed", range(12))
def test_game_and_search_both_play_a_variant_table(seed: int) -> None:
    phases = _play_both(seed, NO_SECOND)
    assert "second" not in phases
    assert phases.count("respond") > phases.count("lead")


@pytest.mark.parametrize("seed", range(4))
def test_game_and_search_both_play_the_real_table(seed: int) -> None:
    assert "second" in _play_both(seed, TRANSITIONS)


def test_a_variant_leaves_the_real_rules_untouched() -> None:
    build_machine(NO_SECOND)
    core.compile_table(NO_SECOND)
    position = Position(trumps=["S", "H"], hands=[["7D", "8D"], ["6H", "AS"]], pile=[], to_act=0, phase="lead")
    game = Game.from_position(position)
    game.push(Lead(seat=0, card="7D"))
    game.push(game.legal_moves()[0])  # seat 1 beats with its own trump, 6♥, and keeps A♠
    assert game.phase == "second"
    state = Game.from_position(position).core_state()
    core.apply(state, core.Card.parse("7D"))
    core.apply(state, core.Card.parse("6H"))
    assert state.phase == core.SECOND


def test_an_event_without_a_row_is_refused_and_changes_nothing() -> None:
    no_deal = tuple(row for row in TRANSITIONS if row.trigger != "deal")
    game = Game(RuleSet(), seed=3, machine=build_machine(no_deal))
    game.push(ChooseTrump(seat=1, suit="H"))
    game.push(ChooseTrump(seat=0, suit="S"))
    before = (game.state(), len(game.events))
    with pytest.raises(IllegalEvent) as refused:
        game.push(game.sample_deal())
    assert refused.value.refusal.code == "no_transition"
    assert str(refused.value) == "the rules take no deal event in phase deal"
    assert (game.state(), len(game.events)) == before


def test_search_refuses_a_move_the_table_has_no_row_for() -> None:
    ace, king = core.Card.parse("AS"), core.Card.parse("KH")
    state = core.State.from_position(trumps=(0, 1), hands=((ace,), (king,)), pile=(), to_act=0, phase=core.LEAD)
    core.apply(state, ace)  # seat 0 goes out; seat 1's last card, K♥ of its trump, beats A♠: a draw
    assert state.phase == core.FINISHED
    with pytest.raises(core.NoTransition, match=r"^the rules have no take in phase finished$") as refused:
        core.apply(state, core.TAKE)
    assert (refused.value.trigger, refused.value.phase) == ("take", core.FINISHED)
