"""``trumps arena`` counts how often a bot with a solver (``perfect``) played exactly.

The real ``perfect`` bot falls back on MCTS at 0.2 s a move and gives its solver seconds: too slow for the
suite, and its counts would depend on the machine's speed. Here its solver is bounded by nodes (so whether it
settles a position is the same on every machine and in every process) and the greedy rules of thumb choose
where MCTS would: a game takes a few hundredths of a second, and its counts are fixed by the seed.
"""

from __future__ import annotations

import json
import multiprocessing
import random

import pytest
from typer.testing import CliRunner

import rules.players.arena
import rules.players.perfect
from benchmarks import arena_games
from rules.cli import app
from rules.cli.arena import exact_play_line
from rules.convert import move_of
from rules.events import Beat, Lead, Second, Take
from rules.game import Game
from rules.options import RuleSet
from rules.players.arena import Moves, Task, moves_of, play_out, play_task, run_arena
from rules.players.base import Player
from rules.players.greedy import GreedyPlayer
from rules.players.levels import parse_bot
from rules.players.perfect import PerfectPlayer
from rules.state import View

runner = CliRunner()

NODES = 2000
"""The solver's budget per position: it settles the endgames with few cards, not the larger positions."""

SEED = 3
"""An arena seed whose games are short (about 25 moves of play each) and where the solver both settles
positions and runs out of budget at some."""


def _greedy_move(view: View, rng: random.Random, *budget: object, **rollouts: object) -> int:
    return move_of(GreedyPlayer(hash(rng.random())).choose(view))  # an int seed: the compiled player checks its types


def _quick_bot(spec: str, seed: int | None = None) -> Player:
    player = parse_bot(spec, seed)
    if isinstance(player, PerfectPlayer):
        player.solver.max_nodes = NODES
        player.solver_seconds = player.probe_seconds = 1000.0  # never reached: the nodes bound the solver
    return player


@pytest.fixture
def quick_perfect(monkeypatch: pytest.MonkeyPatch) -> None:
    """``perfect`` with its solver bounded by nodes and the greedy choice where MCTS would choose (in the
    worker processes too: they are forked from this one)."""
    monkeypatch.setattr(rules.players.perfect, "search", _greedy_move)
    monkeypatch.setattr(rules.players.arena, "parse_bot", _quick_bot)


def test_moves_add_up(quick_perfect: None) -> None:
    result = run_arena(["perfect", "random"], games=4, seed=SEED)
    perfect, other = result.moves["perfect"], result.moves["random"]
    assert perfect.exact is not None and perfect.unsettled is not None and perfect.asked is not None
    assert perfect.exact > 0 and perfect.unsettled > 0  # the seed was chosen so: both happen
    assert perfect.exact + perfect.unsettled == perfect.asked <= perfect.moves
    assert perfect.moves > perfect.asked  # too many cards in the hands at first: the solver is not asked
    # random keeps no counters: it has no exact moves, not zero of them
    assert other == Moves(other.moves) and other.moves > 0 and other.asked is None
    assert list(result.exact_play()) == ["perfect"]
    assert result.as_dict()["exact_play"] == {
        "perfect": {
            "moves": perfect.moves,
            "exact": perfect.exact,
            "asked": perfect.asked,
            "unsettled": perfect.unsettled,
        }
    }


def test_the_moves_are_the_games_moves_of_play(quick_perfect: None) -> None:
    """A game's counts are those of its log: each side's leads, beats, seconds and takes, and the exact
    ones those its bots counted."""
    for seating in ((0, 1), (1, 0)):
        task = Task("perfect", "random", deal=1, seating=seating, seed=SEED)
        played = play_task(task)
        # the same game again, by hand, with the bots play_task makes
        specs = (task.a, task.b)
        bots = [
            _quick_bot(specs[side], seed=task.seed * 1_000_003 + task.deal * 101 + seat * 11 + side)
            for seat, side in enumerate(seating)
        ]
        game = Game(RuleSet(players=2), seed=task.seed * 1_000_003 + task.deal)
        made = play_out(game, bots)
        for seat, side in enumerate(seating):
            logged = [e for e in game.events if isinstance(e, Lead | Beat | Second | Take) and e.seat == seat]
            assert made[seat] == len(logged) > 0
            assert (played.a, played.b)[side] == moves_of(bots[seat], len(logged))
        perfect = bots[seating.index(0)]
        assert isinstance(perfect, PerfectPlayer)
        assert played.a == Moves(made[seating.index(0)], perfect.solved_moves, perfect.unsolved_moves)


def test_the_solver_settles_small_endgames(quick_perfect: None) -> None:
    """Wherever the solver was asked with few cards left it settled the position: exact moves are counted
    as such, and a game whose end the solver reached counts some."""
    perfect = _quick_bot("perfect", seed=1)
    assert isinstance(perfect, PerfectPlayer)
    game = Game(RuleSet(players=2), seed=SEED * 1_000_003)
    play_out(game, [perfect, _quick_bot("random", seed=2)])
    assert moves_of(perfect, 1).exact == perfect.solved_moves > 0


def test_three_players_ask_no_solver_and_say_so(quick_perfect: None) -> None:
    """With three players the solver is never asked: the counts are true zeros, not missing."""
    played = play_task(Task("perfect", "random", deal=0, seating=(0, 1, 0), seed=SEED))
    assert played.a.moves > 0 and (played.a.exact, played.a.unsettled) == (0, 0)
    assert played.b == Moves(played.b.moves)


@pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork", reason="the workers must inherit the quick perfect bot"
)
def test_parallel_games_bring_back_the_same_counts(quick_perfect: None) -> None:
    alone = run_arena(["perfect", "random"], games=4, seed=SEED, jobs=1)
    pooled = run_arena(["perfect", "random"], games=4, seed=SEED, jobs=2)
    assert pooled.moves == alone.moves and pooled.as_dict() == alone.as_dict()
    assert pooled.moves["perfect"].exact


def test_the_command_prints_and_gives_the_counts(quick_perfect: None) -> None:
    arguments = ["arena", "perfect", "random", "--games", "2", "--seed", str(SEED)]
    shown = runner.invoke(app, [*arguments, "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert set(data["exact_play"]) == {"perfect"}  # random keeps no counters: nothing about them
    counts = data["exact_play"]["perfect"]
    assert set(counts) == {"moves", "exact", "asked", "unsettled"}
    assert counts["exact"] + counts["unsettled"] == counts["asked"] <= counts["moves"]
    assert counts["exact"] > 0
    text = runner.invoke(app, arguments, env={"COLUMNS": "250"})
    assert text.exit_code == 0, text.output
    line = (
        f"perfect: played exactly at {counts['exact']} of {counts['moves']} moves "
        f"(solver asked at {counts['asked']}; {counts['unsettled']} not settled within its budget)"
    )
    assert line in " ".join(text.stdout.split())
    assert text.stdout.count("played exactly") == 1


def test_the_benchmark_of_one_pair_prints_the_counts_the_arena_gives(
    quick_perfect: None, capsys: pytest.CaptureFixture[str]
) -> None:
    counts = run_arena(["perfect", "random"], games=4, seed=SEED).moves["perfect"]
    arena_games.play("perfect", "random", games=4, seed=SEED, jobs=2)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == exact_play_line("perfect", counts)
    assert printed[-2].startswith("perfect against random, seed 3: ")
    arena_games.play("random", "greedy", games=2, seed=1, jobs=1)
    assert "exactly" not in capsys.readouterr().out


def test_bots_without_a_solver_show_nothing_new() -> None:
    shown = runner.invoke(app, ["arena", "random", "greedy", "--games", "2", "--seed", "1", "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["exact_play"] == {}
    text = runner.invoke(app, ["arena", "random", "greedy", "--games", "2", "--seed", "1"])
    assert text.exit_code == 0 and "exactly" not in text.stdout and "solver" not in text.stdout
