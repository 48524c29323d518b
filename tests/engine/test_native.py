"""The native path (:mod:`rules.native`) plays the same game as the pure-Python rules it is built from.

The build is made once per version of the sources (about 45 s; later runs find it in the cache).
The rules' own tests then run a second time in a process on the compiled modules: every
conformance vector, every perft count, the random games and the solver against brute force.
And a fingerprint of many random games and of solver searches (values and node counts) is
computed on both paths and compared, so that the compiled one is checked against the
reference, not only against itself.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rules.native
from rules.native import ENVIRONMENT, MODULES

ROOT = Path(__file__).resolve().parents[2]

FINGERPRINT = """
import hashlib, json, random, sys
import rules.native
from rules import core
from rules.players.solver import Solver, SolverLimit
from rules.players.greedy import heuristic_move

sha = hashlib.sha256()
for seed in range(300):
    rng = random.Random(seed)
    players = 2 + seed % 3
    hands = core.deal_pack(players, 0, rng)
    trumps = rng.sample(range(4), players)
    state = core.State.from_position(trumps, hands, (), seed % players, core.LEAD, must_beat=seed % 5 == 0)
    while state.outcome is None:
        moves = core.legal_moves(state)
        move = heuristic_move(state, state.hands) if rng.random() < 0.5 else rng.choice(moves)
        core.apply(state, move)
        sha.update(repr((moves, move, state.key(), state.repeats)).encode())
    sha.update(state.outcome.model_dump_json().encode())
solved = []
for seed in range(12):
    rng = random.Random(seed)
    cards = rng.sample(range(36), 11)
    trumps = rng.sample(range(4), 2)
    state = core.State.from_position(trumps, [cards[:5], cards[5:10]], cards[10:], seed % 2, core.RESPOND)
    solver = Solver(max_nodes=20_000)
    try:
        solution = solver.solve(state)
        solved.append([solution.value, solution.best, list(solution.moves), solver.nodes])
    except SolverLimit:
        solved.append(["open", solver.nodes])
print(json.dumps({"native": rules.native.active(), "games": sha.hexdigest(), "solved": solved}))
"""


def run_on(path: str, *arguments: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python ARGUMENTS`` in the project's root, on the native path (``"1"``) or the pure one (``"0"``)."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, ENVIRONMENT: path},
    )


@pytest.fixture(scope="module")
def build() -> Path:
    return rules.native.build()


def test_the_suite_itself_runs_on_the_pure_path() -> None:
    assert not rules.native.active()
    assert os.environ[ENVIRONMENT] == "0"


def test_a_build_is_named_by_the_sources_and_found_for_them(build: Path, tmp_path: Path) -> None:
    assert build.parent == rules.native.cache_folder()
    assert build.name == rules.native.digest()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in MODULES:
        assert (build / (name.replace(".", "/") + suffix)).is_file(), name
    # The same sources with one byte changed name another build: an edited rule never runs an old build.
    copy = tmp_path / "rules"
    (copy / "players").mkdir(parents=True)
    for file in [*ROOT.joinpath("rules").glob("*.py"), *ROOT.joinpath("rules", "players").glob("*.py")]:
        (copy / file.relative_to(ROOT / "rules")).write_bytes(file.read_bytes())
    assert rules.native.digest(copy) == build.name
    core = copy / "core.py"
    core.write_text(core.read_text(encoding="utf-8").replace("REPETITIONS_FOR_DRAW = 3", "REPETITIONS_FOR_DRAW = 4"))
    assert rules.native.digest(copy) != build.name


def test_the_rules_own_tests_pass_on_the_native_path(build: Path) -> None:
    result = run_on(
        "1",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "tests/engine/test_native.py::test_a_process_runs_the_path_it_was_asked_for",
        "tests/spec/test_spec_vectors.py",
        "tests/spec/test_spec_perft.py",
        "tests/engine/test_random_games.py",
        "tests/players/test_solver.py",
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert " passed" in result.stdout and " failed" not in result.stdout


def test_a_process_runs_the_path_it_was_asked_for() -> None:
    from rules.players import solver

    assert rules.native.active() == (os.environ[ENVIRONMENT] == "1")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    loaded = [sys.modules[name].__file__ or "" for name in MODULES]
    assert solver.__file__ == loaded[-1]
    assert [file.endswith(suffix) for file in loaded] == [rules.native.active()] * len(MODULES)


def test_both_paths_play_the_same_games_and_search_the_same_nodes(build: Path) -> None:
    native, pure = (run_on(path, "-c", FINGERPRINT) for path in ("1", "0"))
    assert native.returncode == 0, native.stderr
    assert pure.returncode == 0, pure.stderr
    fast, reference = json.loads(native.stdout), json.loads(pure.stdout)
    assert (fast.pop("native"), reference.pop("native")) == (True, False)
    assert fast == reference
    values = [value for value, *_ in reference["solved"]]
    assert {1, -1} <= set(values) and "open" in values  # wins, losses, and searches cut by the budget alike


def test_asking_for_a_build_that_does_not_exist_fails_loudly(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import rules"],
        capture_output=True,
        text=True,
        env={**os.environ, ENVIRONMENT: "1", "TRUMPS_CACHE": str(tmp_path)},
    )
    assert result.returncode != 0
    assert "no build of these sources: run python -m rules.native" in result.stderr
    quiet = subprocess.run(
        [sys.executable, "-c", "import rules.native, rules.core; print(rules.native.active())"],
        capture_output=True,
        text=True,
        env={**os.environ, ENVIRONMENT: "", "TRUMPS_CACHE": str(tmp_path)},
    )
    assert quiet.stdout == "False\n", quiet.stderr


def test_building_without_mypyc_says_what_to_install(tmp_path: Path) -> None:
    blocked = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('mypy', 'mypyc'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import runpy\n"
        "runpy.run_module('rules.native', run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked],
        capture_output=True,
        text=True,
        env={**os.environ, "TRUMPS_CACHE": str(tmp_path)},
    )
    assert result.returncode == 1
    assert "no native path: mypyc is not installed: pip install 'your-trumps[native]'" in result.stderr
    assert not any(tmp_path.rglob("*.so"))
