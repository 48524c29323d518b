"""One engine: Game and search play through the same step compiled from the table, and nothing else decides.

The experiments of issue 22, as tests: a variant table whose takes skip a player, a rule
written with a helper in a loop header, an install of byte code only, many games alive.
"""

from __future__ import annotations

import compileall
import gc
import importlib.util
import random
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import rules
from rules import convert, core, generated_step
from rules.events import Event, Position
from rules.game import Game
from rules.machine import MACHINE, build_machine
from rules.options import RuleSet
from rules.step import module_of_steps, steps_digest
from rules.table import TRANSITIONS, Row
from tests.engine.test_random_games import small_position, snapshot
from tests.test_machine import NO_SECOND

SKIP_AFTER_TAKE = tuple(
    row._replace(callbacks=("take_cards", "pass_turn", "pass_turn", "count_position")) if row.trigger == "take" else row
    for row in TRANSITIONS
)
"""A variant: after a take the next player is skipped (only the take rows change)."""


def _move(event: Event) -> int:
    move = convert.move_of(event)
    assert move is not None
    return move


def _play_variant(rows: tuple[Row, ...], seeds: range) -> dict[str, int]:
    """Play games from small positions through Game on ``rows`` and through search compiled from
    them, comparing the whole state after every move; returns how the games ended."""
    machine = build_machine(rows)
    compiled = core.compile_table(rows)
    endings: dict[str, int] = {}
    for seed in seeds:
        rng = random.Random(seed)
        position = small_position(rng)
        game = Game(RuleSet(players=len(position.hands)), machine=machine)
        game.push(position)
        state = game.core_state()
        while not game.is_over():
            moves = game.legal_moves()
            assert [_move(m) for m in moves] == list(compiled.legal_moves(state))
            event = moves[int(rng.random() * len(moves))]
            game.push(event)
            token = core.UndoFields(*compiled.apply(state, _move(event)))
            assert snapshot(game._state) == snapshot(state)
            assert token.counted == game._state.counted
        assert game.outcome is not None and game.outcome == state.outcome
        kind = game.outcome.reason or game.outcome.result
        endings[kind] = endings.get(kind, 0) + 1
    return endings


def test_a_variant_whose_takes_skip_a_player_plays_alike_through_game_and_search() -> None:
    endings = _play_variant(SKIP_AFTER_TAKE, range(80))
    assert endings.get("repetition", 0) > 0 and endings.get("loss", 0) > 0


def test_the_variant_changes_the_game() -> None:
    position = Position(
        trumps=["S", "H", "D"], hands=[["7C"], ["8C"], ["6H", "KD"]], pile=["9C"], to_act=1, phase="respond"
    )
    real, variant = Game.from_position(position), Game(RuleSet(players=3), machine=build_machine(SKIP_AFTER_TAKE))
    variant.push(position)
    for game in (real, variant):
        game.push(game.legal_moves()[-1])  # seat 1 takes 9♣
    assert (real.to_act, variant.to_act) == (2, 0)


def lift_top(state: core.State, count: int) -> tuple[int, ...]:
    """The top ``count`` cards of the pile, taken off it (a helper a rewritten rule calls in a loop header)."""
    pile = state.pile
    state.pile = pile[:-count]
    return pile[-count:]


def take_cards_with_a_helper(state: core.State, move: int) -> None:
    seat = state.to_act
    for card in lift_top(state, core.TAKE_COUNTS[state.trumps[seat]][state.pile[-1]][len(state.pile)]):
        state.hands[seat] |= 1 << card


def test_a_rule_rewritten_with_a_helper_in_a_loop_header_plays_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    real = core.RULES
    monkeypatch.setattr(core, "take_cards", take_cards_with_a_helper)
    rewritten = core.compile_table(TRANSITIONS)
    monkeypatch.undo()
    takes = 0
    for seed in range(20):
        rng = random.Random(seed)
        ours = Game.from_position(small_position(rng)).core_state()
        theirs = ours.copy()
        while ours.phase != core.FINISHED:
            moves = real.legal_moves(ours)
            assert moves == rewritten.legal_moves(theirs)
            move = moves[int(rng.random() * len(moves))]
            assert real.apply(ours, move) == rewritten.apply(theirs, move)
            assert snapshot(ours) == snapshot(theirs)
            takes += move == core.TAKE
    assert takes > 20


def test_a_failing_rule_shows_the_line_of_the_committed_module_that_called_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(state: core.State, move: object) -> None:
        raise RuntimeError("a rule that breaks")

    monkeypatch.setattr(generated_step, "count_position", broken)
    state = core.State.from_position((0, 1), ((0, 1), (10,)), (), 0, core.LEAD)
    with pytest.raises(RuntimeError) as failure:
        core.apply(state, 0)
    caller = traceback.extract_tb(failure.value.__traceback__)[-2]
    assert Path(caller.filename) == Path(generated_step.__file__)
    assert caller.line == "count_position(state, move)"


def test_the_real_rules_play_through_the_committed_module_as_the_table_writes_it() -> None:
    assert core.RULES.why_interpreted is None and core.GENERATED
    assert (core.RULES.apply, core.RULES.legal_mask, core.RULES.legal_moves) == (
        generated_step.apply,
        generated_step.legal_mask,
        generated_step.legal_moves,
    )
    assert Path(generated_step.__file__).read_text(encoding="utf-8") == module_of_steps(core.RULES)


def test_any_other_table_or_rule_walks_the_steps_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    variant = core.compile_table(SKIP_AFTER_TAKE)
    assert variant.why_interpreted == (
        "rules.generated_step was written from another table:"
        " `trumps spec --out spec --docs docs/generated` writes it again"
    )
    assert variant.apply is not generated_step.apply
    monkeypatch.setattr(core, "take_cards", take_cards_with_a_helper)
    assert core.compile_table(TRANSITIONS).why_interpreted == "rules.generated_step calls another take_cards"


NO_TAKE = tuple(row for row in TRANSITIONS if row.trigger != "take")
"""A variant without takes (a player who cannot beat is stuck): a table whose moves include no take at all."""


@pytest.mark.parametrize("rows", [SKIP_AFTER_TAKE, NO_SECOND, NO_TAKE], ids=["skip_after_take", "no_second", "no_take"])
def test_the_module_written_for_a_variant_plays_as_the_steps_walked(rows: tuple[Row, ...], tmp_path: Path) -> None:
    walked = core.compile_table(rows)
    path = tmp_path / "variant_step.py"
    path.write_text(module_of_steps(walked), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("variant_step", path)
    assert spec is not None and spec.loader is not None
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    assert written.STEPS_SHA256 == steps_digest(walked.source) != generated_step.STEPS_SHA256
    plies = refusals = 0
    for seed in range(30):
        rng = random.Random(seed)
        ours = Game.from_position(small_position(rng)).core_state()
        theirs = ours.copy()
        while moves := walked.legal_moves(ours):  # to the end (a variant's position may have no moves at all)
            assert moves == written.legal_moves(theirs) and walked.legal_mask(ours) == written.legal_mask(theirs)
            move = moves[int(rng.random() * len(moves))]
            assert walked.apply(ours, move) == written.apply(theirs, move)
            assert snapshot(ours) == snapshot(theirs)
            plies += 1
        assert written.legal_moves(theirs) == () and written.legal_mask(theirs) == 0
        for move in (0, core.TAKE):  # no move is legal: whatever the phase's rows do, both do it, or both refuse
            assert _played(walked.apply, ours.copy(), move) == _played(written.apply, theirs.copy(), move)
        refusals += theirs.phase == core.FINISHED or rows is NO_TAKE
    assert plies > 50 and refusals > 0


def _played(apply: Callable[[core.State, int], core.Undo], state: core.State, move: int) -> object:
    """What ``apply`` makes of ``move``: its token and the state after it, or the refusal."""
    try:
        return apply(state, move), snapshot(state)
    except core.NoTransition as refused:
        return str(refused)


def test_the_table_is_checked_when_it_is_compiled() -> None:
    with pytest.raises(ValueError, match=r"the table names no_such_rule, which is not a function of rules\.core"):
        core.compile_table((*TRANSITIONS[:-1], TRANSITIONS[-1]._replace(callbacks=("no_such_rule",))))
    with pytest.raises(ValueError, match=r"the table names tie_check, which does not take \(state, move\)"):
        core.compile_table((*TRANSITIONS[:-1], TRANSITIONS[-1]._replace(callbacks=("tie_check",))))
    with pytest.raises(ValueError, match="the transient state turn has no row of its trigger turn"):
        core.compile_table(tuple(row for row in TRANSITIONS if row.trigger != "turn"))
    with pytest.raises(ValueError, match=r"^phase respond takes two kinds of card: \['beat', 'lead'\]$"):
        core.compile_table((*TRANSITIONS, Row("lead", "respond", "turn", (), ("play_card", "pass_turn"))))


def test_search_refuses_a_card_in_a_phase_without_card_rows() -> None:
    state = core.State.from_position((0, 1), ((0,), (10,)), (), 0, core.LEAD)
    core.apply(state, 0)  # seat 0 goes out with its last card
    assert state.phase == core.FINISHED
    with pytest.raises(core.NoTransition, match=r"^the rules have no card in phase finished$"):
        core.apply(state, 10)
    assert state.hands == [0, 1 << 10] and state.pile == (0,)


def test_undoing_the_last_move_of_a_game_takes_its_outcome_back() -> None:
    state = core.State.from_position((0, 1), ((0,), (10,)), (), 0, core.LEAD)
    token = core.apply(state, 0)
    assert state.outcome is not None
    core.undo(state, token)
    assert (state.outcome, state.phase, state.hands, state.out_order) == (None, core.LEAD, [1, 1 << 10], ())


def test_the_undo_token_has_named_positions() -> None:
    state = core.State.from_position((0, 1), ((0, 1), (10,)), (), 0, core.LEAD)
    token = core.UndoFields(*core.apply(state, 0))
    assert (token.seat, token.phase, token.pile, token.hand, token.out_order) == (0, core.LEAD, (), 0b11, ())
    assert token.counted == state.key()


# --- No model per game: the machine is the declared model of the phases, not a registry of games ---


def test_games_are_not_models_of_the_machine() -> None:
    games = [Game(RuleSet(), seed=seed) for seed in range(50)]
    assert MACHINE.models == [MACHINE.lens]
    assert all(not hasattr(game, "_model") for game in games)
    del games
    gc.collect()
    assert MACHINE.models == [MACHINE.lens]


def test_the_machine_is_asked_about_any_state_and_changes_nothing() -> None:
    game = Game.from_position(
        Position(trumps=["S", "H"], hands=[["7D", "8D"], ["6H", "AS"]], pile=[], to_act=0, phase="lead")
    )
    state = game.core_state()
    assert MACHINE.may(state, "lead", core.Card.parse("7D"))
    assert not MACHINE.may(state, "take", core.TAKE)
    assert MACHINE.lens.state == "trump_choice"  # the lens rests between questions
    assert snapshot(state) == snapshot(game.core_state())


def test_the_machine_run_on_a_state_plays_as_the_step() -> None:
    position = Position(trumps=["S", "H"], hands=[["7D", "8D"], ["6H", "AS"]], pile=[], to_act=0, phase="lead")
    state = Game.from_position(position).core_state()
    for trigger, move in (("lead", "7D"), ("beat", "6H"), ("second", "AS")):
        ours = state.copy()
        MACHINE.run(state, trigger, core.Card.parse(move))
        core.apply(ours, core.Card.parse(move))
        assert snapshot(state) == snapshot(ours) and state.counted == ours.counted  # a beat counts no position
    assert state.outcome is not None and state.outcome == ours.outcome  # seat 1 went out: the tie check
    assert MACHINE.lens.state == "trump_choice"


# --- The public API: copy without replaying, peek, the position string ---------------------------


def test_a_copy_is_independent_and_pops_like_the_original() -> None:
    game = Game(RuleSet(players=3), seed=5)
    while game.phase == "trump_choice":
        game.push(game.legal_moves()[0])
    game.push(game.sample_deal())
    for _ in range(6):
        game.push(game.legal_moves()[0])
    copy = game.copy()
    assert copy.state() == game.state() and copy.events == game.events and copy.view(0) == game.view(0)
    copy.push(copy.legal_moves()[-1])
    assert copy.state() != game.state() and len(copy.events) == len(game.events) + 1
    while copy.events:
        copy.pop()
    assert copy.phase == "trump_choice" and len(game.events) == 10
    assert game.view(1) == Game.from_events(game.header, game.events, seed=5).view(1)


def test_peek_is_the_last_event() -> None:
    game = Game(RuleSet())
    with pytest.raises(IndexError, match="no event pushed yet"):
        game.peek()
    event = game.legal_moves()[0]
    game.push(event)
    assert game.peek() == event == game.pop()


def test_the_position_is_a_method_and_exported() -> None:
    game = Game.from_position(
        Position(trumps=["S", "H"], hands=[["7D", "8D"], ["6H", "AS"]], pile=[], to_act=0, phase="lead")
    )
    game.push(game.legal_moves()[0])
    assert game.position() == rules.position_of(game)
    assert Game.from_position(game.position()).legal_moves() == game.legal_moves()


# --- An install of byte code only ------------------------------------------------------------------

PLAY = """
import sys
sys.path.insert(0, sys.argv[1])
import rules, rules.core
assert rules.__file__.startswith(sys.argv[1]) and rules.__file__.endswith(".pyc"), rules.__file__
game = rules.Game(rules.RuleSet(), seed=1)
while not game.is_over():
    if game.phase == "deal":
        game.push(game.sample_deal())
    else:
        game.push(game.legal_moves()[-1])
print(game.outcome.result, len(game.events))
"""


@pytest.fixture
def byte_code_only(tmp_path: Path) -> Iterator[Path]:
    package = tmp_path / "rules"
    shutil.copytree(Path(rules.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__", "server"))
    assert compileall.compile_dir(package, legacy=True, quiet=1)
    for source in package.rglob("*.py"):
        source.unlink()
    yield tmp_path


def test_an_install_of_byte_code_only_imports_and_plays(byte_code_only: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PLAY, str(byte_code_only)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    expected = Game(RuleSet(), seed=1)
    while not expected.is_over():
        expected.push(expected.sample_deal() if expected.phase == "deal" else expected.legal_moves()[-1])
    assert expected.outcome is not None
    assert result.stdout.split() == [expected.outcome.result, str(len(expected.events))]
