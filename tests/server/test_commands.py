"""``trumps serve`` refuses bad settings in one line and logs as asked; ``trumps loadtest`` runs end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from postgres import drop_database, fresh_database
from serving import ServedProcess

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


def test_loadtest_spreads_duels_over_two_servers_on_postgresql() -> None:
    url = fresh_database()
    try:
        result = _run("loadtest", "--tables", "4", "--seconds", "1", "--servers", "2", "--db", url, "--json")
    finally:
        drop_database(url)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["servers"] == 2 and figures["moves"] > 0 and figures["errors"] == 0 and figures["lost_moves"] == 0
    assert figures["opponent_latency_ms"]["p50"] > 0  # every move crossed from one process to the other


def test_serve_logs_json_lines_with_the_flag(tmp_path: Path) -> None:
    server = ServedProcess(tmp_path / "log.sqlite3", {"TRUMPS_LOG_JSON": "1"}, log_level="info").start()
    try:
        with urllib.request.urlopen(f"{server.http}/healthz", timeout=10) as response:
            assert response.status == 200
    finally:
        log = server.stop()
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    request = next(line for line in lines if line.get("path") == "/healthz")
    assert request["method"] == "GET" and request["status"] == 200 and request["level"] == "info"
