"""The real table edited and rules/generated_step.py not written again: the rules still play, slower, with one
warning naming the command, and that command (``trumps spec``) runs and writes the module again.

Apart from tests/engine/test_one_engine.py because it runs ``trumps spec`` (seconds), which the mutation sample
(benchmarks/mutation.py) would pay for every mutant.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import rules
from rules.game import Game
from rules.options import RuleSet

STALE = """
import sys
sys.path.insert(0, sys.argv[1])
from rules import core, Game, RuleSet
assert core.__file__.startswith(sys.argv[1]), core.__file__
game = Game(RuleSet(), seed=1)
while not game.is_over():
    game.push(game.sample_deal() if game.phase == "deal" else game.legal_moves()[-1])
print(core.RULES.why_interpreted)
print(game.outcome.result, len(game.events))
"""

SPEC = "import sys; sys.path.insert(0, sys.argv[1]); from rules.cli import main; sys.argv[1:] = sys.argv[2:]; main()"


def test_a_stale_module_plays_slower_with_a_warning_until_trumps_spec_writes_it(tmp_path: Path) -> None:
    package = tmp_path / "rules"
    shutil.copytree(Path(rules.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("core.py", "table.py"):  # a rule renamed: the committed module now imports a name that is gone
        path = package / name
        path.write_text(path.read_text(encoding="utf-8").replace("pile_is_empty", "pile_empty"), encoding="utf-8")

    def play() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", STALE, str(tmp_path)], capture_output=True, text=True, timeout=120)

    stale = play()
    assert stale.returncode == 0, stale.stderr
    why, result = stale.stdout.splitlines()
    assert why.startswith("rules.generated_step cannot be imported (cannot import name 'pile_is_empty'")
    assert why.endswith("): `trumps spec --out spec --docs docs/generated` writes it again")
    assert stale.stderr.count("StaleStep: ") == 1
    assert f"StaleStep: the rules walk the table's steps, correct but slower: {why}\n" in stale.stderr
    expected = Game(RuleSet(), seed=1)
    while not expected.is_over():
        expected.push(expected.sample_deal() if expected.phase == "deal" else expected.legal_moves()[-1])
    assert expected.outcome is not None
    assert result == f"{expected.outcome.result} {len(expected.events)}"

    spec = subprocess.run(
        [sys.executable, "-c", SPEC, str(tmp_path), "spec", "--out", str(tmp_path / "spec")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert spec.returncode == 0, spec.stderr
    assert "pile_empty(state, move)" in (package / "generated_step.py").read_text(encoding="utf-8")

    fresh = play()
    assert fresh.returncode == 0 and "StaleStep" not in fresh.stderr, fresh.stderr
    assert fresh.stdout.splitlines() == ["None", result]


def test_the_module_imported_before_the_rules_says_so() -> None:
    imported = subprocess.run(
        [sys.executable, "-c", "import rules.generated_step, rules.core; print(rules.core.RULES.why_interpreted)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.stdout == "rules.generated_step was imported before rules.core: import rules.core first\n"
    assert imported.stderr.count("StaleStep: ") == 1
