"""``trumps serve`` refuses bad settings in one line; ``trumps loadtest`` runs end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TRUMPS = [sys.executable, "-c", "from rules.cli import main; main()"]


def _run(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TRUMPS, *args], capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


def test_serve_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_text("this is not a database")
    for path, reason in ((tmp_path / "missing" / "x.sqlite3", "unable to open"), (garbage, "not a database")):
        result = _run("serve", "--port", "1", "--db", str(path))
        assert result.returncode == 2 and reason in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_serve_refuses_bad_settings() -> None:
    result = _run("serve", "--port", "1", env={"TRUMPS_RATE": "fast"})
    assert result.returncode == 2 and result.stderr.strip() == "trumps serve: TRUMPS_RATE: 'fast' is not a number"
    result = _run("serve", "--port", "1", "--sync", "sometimes")
    assert result.returncode == 2 and "sync: 'sometimes' is not full or normal" in result.stderr


def test_loadtest_drives_duels_over_real_websockets() -> None:
    result = _run("loadtest", "--tables", "3", "--seconds", "1", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["tables"] == 3 and figures["moves"] > 0
    assert figures["errors"] == 0 and figures["lost_moves"] == 0
    assert set(figures["latency_ms"]) == {"p50", "p95", "p99", "max"}
