"""``trumps bench`` prints its figures; speed targets are reported, never asserted."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rules.cli import app


def test_bench_json_prints_every_figure() -> None:
    result = CliRunner().invoke(app, ["bench", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"machine_plies_per_s", "search_plies_per_s", "lean_plies_per_s", "search_to_lean"}
    assert all(isinstance(figures[key], int) and figures[key] > 0 for key in figures if key.endswith("_per_s"))
    assert figures["search_to_lean"] == round(figures["search_plies_per_s"] / figures["lean_plies_per_s"], 2)


def test_bench_text_names_both_paths() -> None:
    result = CliRunner().invoke(app, ["bench", "--seconds", "0.1"])
    assert result.exit_code == 0
    assert "machine" in result.stdout and "search" in result.stdout and "yardstick" in result.stdout


def run_solver_benchmark(*extra: str) -> tuple[list[str], str]:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.solver", "--cards", "6", "--positions", "4", "--limit", "20", *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    path, *positions, summary = result.stdout.splitlines()
    assert path == "path: pure Python"  # the suite runs on the pure path (conftest.py)
    return positions, summary


def test_the_solver_benchmark_compares_the_native_path_with_the_pure_one() -> None:
    import rules.native

    rules.native.build()
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.solver", "--cards", "8", "--positions", "4", "--limit", "20", "--both"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("path:")] == [
        "path: native (rules.native, compiled by mypyc)",
        "path: pure Python",
    ]
    assert "times as fast; settled by both: 4, the same value and nodes on 4" in lines[-1], lines[-1]


def test_solver_benchmark_runs_and_prints_its_figures() -> None:
    searches = (["--no-proof-numbers"], "6"), (["--no-exact-search"], "6")
    for extra, size in (([], "6"), *searches, (["--up-to"], "up to 6")):
        positions, summary = run_solver_benchmark(*extra)
        sizes = [sum(int(n) for n in line.split()[2].split("+")) for line in positions]
        assert len(sizes) == 4 and all(2 <= n <= 6 if extra == ["--up-to"] else n == 6 for n in sizes), sizes
        assert f"4 positions, {size} cards in hands" in summary and "solved within 20 s: 4/4" in summary, summary


def test_the_solver_benchmark_can_solve_a_fixed_subset_of_its_sample() -> None:
    # --only picks positions of the same sample: the same sizes, values and node counts as in the full run.
    def fixed(line: str) -> list[str]:
        index, _, sizes, _, pile, _, value, _, _, nodes, *_ = line.split()
        return [index, sizes, pile, value, nodes]

    everything, _ = run_solver_benchmark()
    subset, summary = run_solver_benchmark("--only", "1,3")
    assert [fixed(line) for line in subset] == [fixed(everything[1]), fixed(everything[3])]
    assert summary.startswith("2 positions"), summary


def test_the_median_interval_holds_the_median_with_the_confidence_it_claims() -> None:
    from benchmarks.solver import median_interval

    # 30 samples: the 10th smallest to the 10th largest cover the median with 95.7%.
    low, high, sure = median_interval([float(t) for t in range(30, 0, -1)])
    assert (low, high) == (10.0, 21.0) and round(sure, 4) == 0.9572
    # Too few samples for 95%: the whole range, and how sure that is.
    assert median_interval([3.0, 1.0, 4.0, 2.0]) == (1.0, 4.0, 14 / 16)


def test_the_solver_benchmark_measures_the_proofs_it_found() -> None:
    from rules import core
    from rules.cards import Card
    from rules.players.solver import Solver

    # Seat 1 beats with its last card: a proof of one position, one ply high.
    state = core.State.from_position(
        trumps=(0, 1),
        hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
        pile=(Card.parse("9C"), Card.parse("JC")),
        to_act=1,
        phase=core.RESPOND,
    )
    solver = Solver()
    assert solver.value(state) == 1
    assert solver.proof_size(state, seat=1) == (1, 1)
    strategy, height = solver.proof_strategy(state, seat=1)
    assert ({key: core.move_code(move) for key, move in strategy.items() if move is not None}, height) == (
        {state.key(): "KH"},
        1,
    )
    with pytest.raises(ValueError, match="no win of seat 0"):
        solver.proof_size(state, seat=0)

    lines, proofs = run_solver_benchmark("--proof")
    positions = lines[:-1]  # then the usual summary, and a last line on the proofs
    assert len(positions) == 4
    for line in positions:
        value = line.split()[6]
        assert ("proof" in line) == (value in ("1", "-1")), line
    assert "nodes per position of the proof" in proofs, proofs


def test_the_benchmark_positions_through_trumps_solve_get_the_solvers_values() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.solve_cli", "--cards", "6", "--positions", "4", "--seconds", "20"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    _, *lines, summary = result.stdout.splitlines()
    assert "4 positions, 6 cards in hands, trumps solve --json --seconds 20" in summary, summary
    assert "exact value: 4/4" in summary, summary
    in_process = run_solver_benchmark("--solve")[0][:-1]  # then the summary, and a last line on the moves
    # The same positions (numbered alike) and, through the command, the values the solver gives in process.
    for line, reference in zip(lines, in_process, strict=True):
        index, _, sizes, _, pile, _, _, kind, _, value, open_moves, _, moves, *_ = line.split()
        assert kind == "exact"
        assert reference.split()[:7] == [index, "hands", sizes, "pile", pile, "value", value]
        assert f"{open_moves} of {moves} moves open" in reference


def test_the_solver_benchmark_plays_games_on_from_its_positions() -> None:
    import random

    from benchmarks.solver import playouts, sample
    from rules import core
    from rules.cards import Card

    # Seat 0 leads its last card and goes out; seat 1 is left with two cards and loses: every game, one ply.
    state = core.State.from_position(
        trumps=(0, 1),
        hands=((Card.parse("6S"),), (Card.parse("7D"), Card.parse("KH"))),
        pile=(),
        to_act=0,
        phase=core.LEAD,
    )
    assert playouts(state, 5, random.Random(1)) == (5, 0, 0, 1)

    # Seeded by the position: the same games again.
    _, longer = next(sample(random.Random(3), cards=10, positions=1))
    assert playouts(longer, 20, random.Random("3/0")) == playouts(longer, 20, random.Random("3/0"))

    lines, _ = run_solver_benchmark("--playouts", "3")
    for line in lines:
        won, drawn, lost = (int(count.strip(",;")) for count in line.split("won ")[1].split()[:5:2])
        assert won + drawn + lost == 3, line


def test_the_mcts_benchmark_counts_the_moves_that_keep_the_exact_value() -> None:
    from benchmarks.mcts_exact import choices
    from rules import core

    found = choices(cards=8, positions=12, seed=1, from_games=False, max_nodes=200_000)
    assert found, "the sample holds positions where a move gives value away"
    for _, state, keeping in found:
        assert keeping and keeping < set(core.legal_moves(state))  # some moves keep the value, not all
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.mcts_exact", "--cards", "8", "--positions", "12", "--iterations", "10,40"]
        + ["--repeats", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    first, greedy, *rows = result.stdout.splitlines()
    assert first.startswith(f"{len(found)} of 12 positions (8 cards, seed 1)"), first
    assert greedy.split(":")[0].strip() == "greedy" and f"of {len(found)} times" in greedy, greedy
    assert [row.split(" iterations")[0].strip() for row in rows] == ["10", "40"], rows
    assert all(f"of {len(found)} times" in row for row in rows), rows


def test_the_solver_benchmark_counts_the_positions_reachable_from_each() -> None:
    from benchmarks.solver import random_position, reachable
    from rules import core

    def every_position(start: core.State) -> set[object]:
        # a second walk, breadth first on copies: each position a turn starts at (§3.3.2), and the game's ends
        found = {start.key()}
        frontier = [start]
        while frontier:
            reached = []
            for state in frontier:
                for move in core.legal_moves(state):
                    child = state.copy()
                    core.apply(child, move)
                    if child.phase == core.SECOND:
                        reached.append(child)  # the same turn goes on: its second card
                    elif child.key() not in found:
                        found.add(child.key())
                        if child.outcome is None:
                            reached.append(child)
            frontier = reached
        return found

    rng = random.Random(5)
    for _ in range(6):
        state = random_position(rng, 5)
        count = len(every_position(state))
        assert reachable(state, 10**6) == count
        assert reachable(state, 3) == min(3, count)  # counting stops at the limit

    lines, _ = run_solver_benchmark("--reachable", "1000")
    assert all("reachable: " in line for line in lines[:-1]), lines


def test_the_proof_table_of_the_players_page_is_the_solvers_today() -> None:
    # docs/players.md says its node counts repeat to the node on any machine: its cheapest rows, solved again.
    from pathlib import Path

    from benchmarks.solver import sample
    from rules.players.solver import Solver

    page = (Path(__file__).resolve().parents[1] / "docs" / "players.md").read_text(encoding="utf-8")
    rows = {
        int(index): (int(value), int(nodes.replace(",", "")), int(proof.replace(",", "")), int(height))
        for index, value, nodes, proof, height in re.findall(
            r"^\| seed 1, (\d+) \| (-?1) \| ([\d,]+) \| ([\d,]+) \| (\d+) \|", page, re.M
        )
    }
    assert len(rows) == 8, "the proof table of the seed 1 development set"
    cheap = {index: row for index, row in rows.items() if row[1] < 70_000}
    assert len(cheap) >= 2
    positions = dict(sample(random.Random(1), cards=14, positions=max(cheap) + 1))
    for index, (value, nodes, proof, height) in cheap.items():
        state = positions[index]
        solver = Solver()
        assert solver.value(state) == value, index
        winner = state.to_act if value == 1 else 1 - state.to_act
        assert (solver.nodes, *solver.proof_size(state, winner)) == (nodes, proof, height), index


def test_the_move_order_table_of_the_players_page_is_the_solvers_today() -> None:
    # docs/players.md's bound on what a perfect move order saves: its cheapest row, measured again.
    from pathlib import Path

    from benchmarks.move_order import CHOICE_PHASES, measure
    from benchmarks.solver import sample
    from rules import core

    page = (Path(__file__).resolve().parents[1] / "docs" / "players.md").read_text(encoding="utf-8")
    rows = {
        int(index): tuple(int(nodes.replace(",", "")) for nodes in counts)
        for index, *counts in re.findall(
            r"^\| position (\d+) of seed 1 \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|", page, re.M
        )
    }
    assert len(rows) == 8, "the move order table of the seed 1 development set"
    index = min(rows, key=lambda index: rows[index][0])
    nodes, told, shedding = rows[index]
    state = dict(sample(random.Random(1), cards=14, positions=index + 1))[index]
    everywhere = measure(state, 1_000_000, {core.PHASE_NUMBERS[name] for name in CHOICE_PHASES})
    at_leads = measure(state, 1_000_000, {core.LEAD, core.SECOND})
    assert everywhere is not None and at_leads is not None
    assert (everywhere.nodes, everywhere.told_nodes, at_leads.told_nodes) == (nodes, told, shedding)
