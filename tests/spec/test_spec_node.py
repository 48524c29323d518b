"""The Node checks of spec/ (tests/node): Ajv compiles every schema strictly and validates every vector,
state and example of the docs; deals.mjs, written from docs/deals.md alone, reproduces spec/deals.json, and
hand_ends.mjs finds the problems of spec/hand_ends.json that need no rules engine."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

NODE_TESTS = Path(__file__).resolve().parents[1] / "node"


def installed(folder: Path) -> bool:
    """Whether node_modules holds exactly the packages of the committed package-lock.json."""
    lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))
    for path, package in lock["packages"].items():
        if not path:
            continue
        manifest = folder / path / "package.json"
        if not manifest.exists() or json.loads(manifest.read_text(encoding="utf-8"))["version"] != package["version"]:
            return False
    return True


def test_node_checks_pass() -> None:
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "Node and npm are missing: ./run-tests installs Debian's nodejs and npm"
    if not installed(NODE_TESTS):
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=NODE_TESTS, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    tests = sorted(path.name for path in NODE_TESTS.glob("*.test.mjs"))
    assert tests == ["deals.test.mjs", "hand_ends.test.mjs", "schemas.test.mjs"]
    result = subprocess.run([node, "--test", *tests], cwd=NODE_TESTS, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
