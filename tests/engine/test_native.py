"""The native path (:mod:`rules.native`) plays the same game as the pure-Python rules it is built from.

The build is made once per version of the sources (about 45 s; later runs find it in the cache).
The rules' own tests then run a second time in a process on the compiled modules: every
conformance vector, every perft count, the random games and the solver against brute force.
And a fingerprint of many random games and of solver searches (values and node counts) is
computed on both paths and compared, so that the compiled one is checked against the
reference, not only against itself.
"""

from __future__ import annotations

import ast
import importlib.machinery
import json
import os
import re
import shutil
import subprocess
import sys
import time
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
    """The build, made the way a fresh installation gets it: started in the background by a command that searches."""
    key = rules.native.digest()
    assert key is not None
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENVIRONMENT, "")
        if rules.native.build_in_background():
            deadline = time.monotonic() + 900
            while rules.native.marker(key, "building").exists() and time.monotonic() < deadline:
                time.sleep(1)
    folder = rules.native.build_folder()
    assert folder is not None, rules.native.marker(key, "log").read_text(encoding="utf-8")
    return folder


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
    for file in rules.native.sources():
        (copy / file.relative_to(ROOT / "rules")).parent.mkdir(parents=True, exist_ok=True)
        (copy / file.relative_to(ROOT / "rules")).write_bytes(file.read_bytes())
    assert rules.native.digest(copy) == build.name
    core = copy / "core.py"
    edited = core.read_text(encoding="utf-8").replace(
        "REPETITIONS_FOR_DRAW: Final = 3", "REPETITIONS_FOR_DRAW: Final = 4"
    )
    core.write_text(edited)
    assert rules.native.digest(copy) != build.name


def test_a_module_added_to_the_compiled_ones_names_another_build(tmp_path: Path) -> None:
    # The list of modules to compile is part of what a build is made from: with it edited, the build of the
    # unchanged rules must not be taken for the new one (its new module would silently run as Python).
    copy = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", copy, ignore=shutil.ignore_patterns("__pycache__", "server", "locale"))
    before = rules.native.digest(copy)
    native = copy / "native" / "__init__.py"
    text = native.read_text(encoding="utf-8")
    native.write_text(
        text.replace('    "rules.players.solver",\n', '    "rules.players.solver",\n    "rules.players.mcts",\n')
    )
    assert native.read_text(encoding="utf-8") != text
    assert rules.native.digest(copy) != before


IMPORTED = """
import importlib, sys
import rules.native
for name in rules.native.MODULES:
    importlib.import_module(name)
print(*sorted(module.__file__ for name, module in sys.modules.items() if name.startswith("rules") and module.__file__))
"""


def test_every_module_the_compiled_ones_import_is_part_of_the_builds_name() -> None:
    # mypyc reads them all, and puts a Final constant of any of them into the compiled code: one left out of the
    # digest could be edited while the old build kept running with the old value.
    result = run_on("0", "-c", IMPORTED)
    assert result.returncode == 0, result.stderr
    imported = {Path(file) for file in result.stdout.split()}
    left_out = sorted(file.relative_to(ROOT).as_posix() for file in imported - set(rules.native.sources()))
    assert left_out == [], "add their folders to rules.native._SOURCES"


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
    assert "no native path: mypyc is not installed: pip install mypy setuptools installs it" in result.stderr
    assert not any(tmp_path.rglob("*.so"))


class _Starts:
    """Stands in for ``subprocess.Popen``: records the commands a background build would run."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str], **options: object) -> None:
        assert options["start_new_session"] is True
        self.commands.append(command)


@pytest.fixture
def starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> _Starts:
    """An empty cache in ``tmp_path``, the native path allowed, and the builds started recorded, not run."""
    recorder = _Starts()
    monkeypatch.setenv("TRUMPS_CACHE", str(tmp_path))
    monkeypatch.setenv(ENVIRONMENT, "")
    monkeypatch.setattr(subprocess, "Popen", recorder)
    return recorder


def test_a_missing_build_is_started_once_in_the_background(starts: _Starts) -> None:
    key = rules.native.digest()
    assert key is not None
    assert rules.native.build_in_background()
    assert starts.commands == [[sys.executable, "-m", "rules.native", "--background"]]
    assert rules.native.marker(key, "building").read_text(encoding="utf-8") == f"{os.getpid()}\n"
    # Another command, in this process or any other, finds the build claimed and starts none.
    assert not rules.native.build_in_background()
    assert len(starts.commands) == 1


def test_a_build_that_died_is_started_again_and_one_that_failed_is_not(starts: _Starts) -> None:
    key = rules.native.digest()
    assert key is not None
    building = rules.native.marker(key, "building")
    building.parent.mkdir(parents=True)
    building.write_text("1\n", encoding="utf-8")
    assert not rules.native.build_in_background()
    old = time.time() - rules.native.STALE_SECONDS - 1
    os.utime(building, (old, old))
    assert rules.native.build_in_background()
    building.unlink()
    rules.native.marker(key, "failed").write_text("no native path: no C compiler\n", encoding="utf-8")
    assert not rules.native.build_in_background()
    assert len(starts.commands) == 1


def test_no_build_is_started_when_the_pure_path_is_asked_for(starts: _Starts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "0")
    assert not rules.native.build_in_background()
    assert starts.commands == []


def test_a_background_build_leaves_its_reason_when_it_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.native import __main__ as command

    key = rules.native.digest()
    assert key is not None
    monkeypatch.setenv("TRUMPS_CACHE", str(tmp_path))
    building, failed = rules.native.marker(key, "building"), rules.native.marker(key, "failed")
    building.parent.mkdir(parents=True)
    building.touch()

    def no_compiler() -> Path:
        raise RuntimeError("mypyc failed: no C compiler")

    monkeypatch.setattr(command, "build", no_compiler)
    assert command.main(["--background"]) == 1
    assert failed.read_text(encoding="utf-8") == "no native path: mypyc failed: no C compiler\n"
    assert not building.exists()
    # By hand it is tried again, and a build that works takes the reason away.
    monkeypatch.setattr(command, "build", lambda: tmp_path)
    monkeypatch.setattr(command, "_loads", lambda folder: None)
    assert command.main([]) == 0
    assert not failed.exists()
    assert command.main(["--now"]) == 2


def module_constants(path: Path) -> dict[str, str | None]:
    """The upper-case names a module assigns at its top level, each with its annotation (``None`` if it has none)."""
    constants: dict[str, str | None] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            named = [(node.target.id, ast.unparse(node.annotation))]
        elif isinstance(node, ast.Assign):
            names = [target for target in node.targets if isinstance(target, ast.Name)]
            names += [e for t in node.targets if isinstance(t, ast.Tuple) for e in t.elts if isinstance(e, ast.Name)]
            named = [(name.id, None) for name in names]
        else:
            continue
        constants.update((name, note) for name, note in named if re.fullmatch(r"_?[A-Z][A-Z0-9_]*", name))
    return constants


def test_the_constants_of_the_compiled_modules_are_final() -> None:
    # mypyc compiles a module-level name that is not Final as a lookup in the module's dictionary at
    # every use: the search read about 28 of them a node, 17% of its instructions (docs/players.md).
    for name in MODULES:
        constants = module_constants(ROOT / (name.replace(".", "/") + ".py"))
        assert constants, name  # the parse found them
        loose = [constant for constant, note in constants.items() if not (note or "").startswith("Final")]
        assert loose == [], f"{name}: declare {', '.join(loose)} Final"
    assert module_constants(ROOT / "rules" / "players" / "solver.py")["UNBOUNDED"] == "Final"
