"""What the analysis board, ``trumps solve`` and the hint say of a position (:func:`rules.analysis.evaluate`).

An exact value is the game's: checked against plain minimax over the real rules with the repetitions the game has
had. An estimate is an expected score: playouts played to the end, each worth 1, ½ or 0 to each seat.
"""

from __future__ import annotations

import random
from pathlib import Path

from test_solver import brute_force_value
from typer.testing import CliRunner

from rules import core
from rules.analysis import Evaluation, evaluate
from rules.cards import CODES
from rules.cli import app
from rules.convert import move_of
from rules.events import Position, SeenPosition
from rules.game import Game
from rules.log import read_log
from rules.players.solver import Solver

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"


def _prefix(name: str, events: int) -> Game:
    lines = (VECTORS / name).read_text().splitlines()
    return read_log("\n".join(lines[: events + 1]))


def test_a_move_into_a_third_occurrence_is_the_draw_it_makes_not_the_solvers_loss() -> None:
    """The vector's last take makes the same position a third time: a draw, whatever the solver, which counts
    repetitions from the position it is given, makes of it (a loss: it sees the position once)."""
    game = _prefix("position_with_seen_history.jsonl", 8)
    found = evaluate(game, Solver(seconds=5)).as_dict()
    assert found["kind"] == "exact" and found["value"] == 1
    values = {entry["move"]["type"]: entry["value"] for entry in found["moves"]}
    assert values == {"beat": 1, "take": 0}
    game.push(game.legal_moves()[-1])  # the take, as the log plays it
    assert game.outcome is not None and game.outcome.reason == "repetition"


def _key_fields(state: core.State) -> SeenPosition:
    """The position of ``state`` as a log's ``seen`` entry writes it (counted once; its count set by the caller)."""
    hands = [[CODES[card] for card in range(36) if hand >> card & 1] for hand in state.hands]
    phase = "respond" if state.pile else "lead"
    return SeenPosition(
        hands=hands, pile=[CODES[card] for card in state.pile], to_act=state.to_act, phase=phase, count=1
    )


def _with_history(rng: random.Random) -> Game:
    """A small duel position whose history holds positions play can reach from it, some of them seen twice."""
    while True:
        cards = rng.sample(CODES, rng.randint(3, 5))
        mine = rng.randint(1, len(cards) - 2)
        position = Position(
            trumps=rng.sample("SHDC", 2),
            hands=[cards[:mine], cards[mine:]],
            pile=[],
            to_act=rng.randrange(2),
            phase="lead",
        )
        start = Game.from_position(position).core_state()
        reachable: list[core.State] = []
        frontier = [start]
        for _depth in range(6):
            following = []
            for state in frontier:
                for move in core.legal_moves(state):
                    child = state.copy()
                    core.apply(child, move)
                    if child.outcome is None:
                        following.append(child)
                        if child.phase != core.SECOND:
                            reachable.append(child)
            frontier = following
        if not reachable:
            continue
        seen = [_key_fields(state) for state in rng.sample(reachable, min(len(reachable), rng.randint(1, 3)))]
        seen = [entry.model_copy(update={"count": rng.choice((1, 2, 2))}) for entry in seen]
        try:
            return Game.from_position(position.model_copy(update={"seen": seen}))
        except ValueError:
            continue  # a history that already holds the starting position twice is no game


def test_every_value_called_exact_is_the_games_own_with_its_repetitions() -> None:
    """On small positions whose history holds reachable positions seen once or twice, every value is exact (the
    solver is told the history), the position's and each move's, and plain minimax's over the real rules with it."""
    rng = random.Random(7)
    exact = settled = 0
    for _ in range(80):
        game = _with_history(rng)
        found = evaluate(game, Solver(), playouts=1)
        state = game.core_state()
        if found.kind != "exact":
            continue
        exact += 1
        assert found.value == brute_force_value(state.copy()), game.events
        for entry in found.moves:
            child = state.copy()
            core.apply(child, move_of(entry.move))
            assert entry.value == brute_force_value(child, state.to_act), (game.events, entry)
            settled += 1
    assert exact == 80 and settled >= 150, (exact, settled)


def test_an_estimate_is_an_expected_score_of_games_played_to_the_end() -> None:
    """Each playout is a whole game, worth 1, ½ or 0 to each seat: a move's estimate over 24 playouts is a number of
    half points out of 48, and with three or four players, of whom one loses (or all draw), the seats' scores add up
    to between half the seats and all but one of them."""
    for name, events, players in (
        ("full_game_duel.jsonl", 6, 2),
        ("full_game_three_players.jsonl", 8, 3),
        ("full_game_four_players.jsonl", 8, 4),
    ):
        found = evaluate(_prefix(name, events), None)
        assert found.kind == "estimate"
        for entry in found.moves:
            halves = entry.value * entry.samples * 2  # the value is rounded to 3 decimals
            assert abs(halves - round(halves)) <= 0.001 * entry.samples + 1e-9, (name, entry)
        assert players / 2 - 0.01 <= sum(found.scores) <= players - 1 + 0.01, (name, found.scores)


def test_an_exact_value_with_every_move_open_still_lists_best_and_moves() -> None:
    """docs/protocol.md: an exact evaluation has ``best`` and ``moves`` (the settled ones) and ``unsettled``; a draw
    can be proven before any of its moves is settled, and its answer keeps the fields, empty, for a client to read."""
    game = _prefix("full_game_duel.jsonl", 30)
    moves = game.legal_moves()
    answer = Evaluation("exact", 0, [0.5, 0.5], value=0, unsettled=moves).as_dict()
    assert answer["best"] == [] and answer["moves"] == [] and len(answer["unsettled"]) == len(moves)
    assert "best" not in Evaluation("over", None, [0.5, 0.5]).as_dict()


def test_every_position_after_a_repetition_is_evaluated_exactly() -> None:
    """The vector's positions after its first position came up twice: the board's evaluation tells the solver the
    game's history (the solver's own tests check such values against the plain minimax), so every one is exact; the
    last, small enough for the minimax here, has the game's value."""
    exact = 0
    for events in range(1, 10):
        game = _prefix("position_with_seen_history.jsonl", events)
        if game.outcome is None and game.phase != "second":
            found, last = evaluate(game, Solver(seconds=5)), game
            assert found.kind == "exact" and not found.unsettled, (events, found)
            exact += 1
    assert exact == 6 and found.value == brute_force_value(last.core_state().copy())


def test_trumps_solve_gives_the_games_own_exact_value_after_a_repetition() -> None:
    """Move 5 of the vector: a position came up twice before it; the answer is exact all the same, the board's."""
    result = CliRunner().invoke(app, ["solve", str(VECTORS / "position_with_seen_history.jsonl"), "--move", "5"])
    assert result.exit_code == 0, result.output
    found = evaluate(_prefix("position_with_seen_history.jsonl", 5), Solver(seconds=5))
    assert (found.kind, found.value) == ("exact", 1)
    assert result.stdout.splitlines()[0] == f"seat {found.seat} to act: win (+1)"
