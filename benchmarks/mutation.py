"""Mutation testing of the engine: sampled first-order mutants of the engine's modules
(:data:`MODULES`: the rules, the step, the machine, validation, the game and the log reader),
each run against the engine tests.

Run ``python -m benchmarks.mutation [--per-module 12] [--seed 1] [--timeout 240] [--module rules/core.py]``;
``--module`` takes any module of ``rules/`` (repeatable), with the tests :data:`TESTS` lists for it, except
:data:`GENERATED`: that code is written by ``trumps spec`` from the table (and the engine plays it only while
it is what the table writes), so its generator, ``rules/step.py``, is the module to mutate.

A small AST mutator, no dependency: it lists every place where one operator can be
swapped (``==``/``!=``, ``<``/``>=``, ``>``/``<=``, ``and``/``or``, ``+``/``-``), a
``not`` dropped, an integer constant raised by one, ``True``/``False`` swapped or one
statement replaced by ``pass``, and samples ``--per-module`` of them per module with
``--seed``. Each mutant is written into a copy of the repository (so the installed
package is not touched) and the engine tests run there with ``-x``; a mutant is killed
when they fail (or run past ``--timeout`` seconds, which a mutant looping forever does).
Prints one line per mutant and the kill rate per module; the survivors are the lines to
read, to tell an equivalent mutant from a missing test.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from rules.native import ENVIRONMENT

ROOT = Path(__file__).resolve().parents[1]
MODULES = (
    "rules/core.py",
    "rules/step.py",
    "rules/machine.py",
    "rules/validation.py",
    "rules/game.py",
    "rules/log.py",
)
GENERATED = "rules/generated_step.py"
ENGINE_TESTS = (
    # the engine tests that run in seconds (the log fuzzing and oracle suites take minutes per mutant)
    "tests/test_machine.py",
    "tests/engine/test_mutants.py",
    "tests/engine/test_clauses.py",
    "tests/engine/test_one_engine.py",
    "tests/engine/test_endings.py",
)
TESTS: dict[str, tuple[str, ...]] = {
    "rules/log.py": ("tests/engine/test_bad_input.py", "tests/spec/test_spec_vectors.py"),
    "rules/validation.py": ("tests/engine/test_bad_input.py",),
}
"""Tests run for a module besides :data:`ENGINE_TESTS` and the module's own doctests."""

_SWAPS: dict[type, type] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.And: ast.Or,
    ast.Or: ast.And,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}


class Mutant(NamedTuple):
    module: str
    line: int
    what: str
    source: str


def _docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _mutants(module: str) -> Iterator[Mutant]:
    """Every first-order mutant of ``module``, in source order."""
    text = (ROOT / module).read_text(encoding="utf-8")
    count = sum(1 for _ in _points(ast.parse(text)))
    for index in range(count):
        tree = ast.parse(text)
        point = list(_points(tree))[index]
        what = _mutate(point)
        ast.fix_missing_locations(tree)
        yield Mutant(module, getattr(point, "lineno", 0), what, ast.unparse(tree))


def _points(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes :func:`_mutate` can change, in the order ``ast.walk`` visits them."""
    for node in ast.walk(tree):
        if _mutable(node):
            yield node


def _mutable(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        return type(node.ops[0]) in _SWAPS
    if isinstance(node, (ast.BoolOp, ast.BinOp)):
        return type(node.op) in _SWAPS
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, bool)
    return isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)) and not _docstring(node)


def _mutate(node: ast.AST) -> str:
    """Change ``node`` in place; returns what was done."""
    if isinstance(node, ast.Compare):
        old = type(node.ops[0])
        node.ops[0] = _SWAPS[old]()
        return f"{old.__name__} -> {_SWAPS[old].__name__}"
    if isinstance(node, (ast.BoolOp, ast.BinOp)):
        old = type(node.op)
        node.op = _SWAPS[old]()  # type: ignore[assignment]
        return f"{old.__name__} -> {_SWAPS[old].__name__}"
    if isinstance(node, ast.UnaryOp):
        node.operand = ast.UnaryOp(ast.Not(), node.operand)  # `not x` becomes `not not x`
        return "not dropped"
    if isinstance(node, ast.Constant):
        old_value = node.value
        node.value = (not old_value) if isinstance(old_value, bool) else old_value + 1
        return f"{old_value!r} -> {node.value!r}"
    kind = type(node).__name__
    node.__class__ = ast.Pass
    return f"{kind} statement -> pass"


def _killed(mutant: Mutant, timeout: float, tests: tuple[str, ...]) -> tuple[bool, str]:
    """Whether ``tests`` (paths in the repository) fail on ``mutant``, and the line that says how."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as work:
        copy = Path(work)
        for part in ("rules", "tests", "spec"):
            shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
        (copy / mutant.module).write_text(mutant.source, encoding="utf-8")
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--no-header", *tests]
        # The pure path, as the suite's conftest.py (not copied) sets it: a mutant's sources have no native build,
        # and with TRUMPS_NATIVE=1 exported every mutant would fail at its import and count as killed.
        environment = {**os.environ, ENVIRONMENT: "0"}
        try:
            result = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=timeout, env=environment)
        except subprocess.TimeoutExpired:
            return True, "timeout"
        failed = [line for line in result.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        return result.returncode != 0, (failed or result.stdout.strip().splitlines() or ["?"])[-1][:150]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-module", type=int, default=12, help="mutants sampled per module [12]")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample [1]")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds before a test run counts as killed")
    parser.add_argument("--module", action="append", help="only this module of rules/ (repeatable)")
    args = parser.parse_args()
    for module in args.module or ():
        if not (module.startswith("rules/") and module.endswith(".py") and (ROOT / module).is_file()):
            parser.error(f"--module {module}: not a module of rules/ (such as rules/core.py)")
        if module == GENERATED:
            parser.error(f"--module {module}: generated by trumps spec; mutate its generator, rules/step.py")
    for module in args.module or MODULES:
        rng = random.Random(f"{args.seed} {module}")
        every = list(_mutants(module))
        sample = sorted(rng.sample(every, min(args.per_module, len(every))), key=lambda mutant: mutant.line)
        killed = 0
        for mutant in sample:
            dead, detail = _killed(mutant, args.timeout, (*ENGINE_TESTS, *TESTS.get(module, ()), module))
            killed += dead
            print(f"{module}:{mutant.line}: {mutant.what}: {'killed' if dead else 'SURVIVED'} ({detail})", flush=True)
        print(f"{module}: {killed}/{len(sample)} killed of {len(every)} mutants", flush=True)


if __name__ == "__main__":
    main()
