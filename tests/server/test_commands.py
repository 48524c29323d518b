"""``trumps serve`` refuses bad settings in one line and logs as asked; ``trumps loadtest`` runs end to end."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets
from postgres import drop_database, fresh_database
from serving import ServedProcess, free_port

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
    result = _run("serve", "--port", "1", "--rules-url", "rules.example")
    assert result.returncode == 2
    assert result.stderr.strip() == "trumps serve: rules_url: 'rules.example' is not an http:// or https:// address"


def test_loadtest_drives_duels_over_real_websockets_and_cleans_up(tmp_path: Path) -> None:
    """Weak players finish hands and start new ones; --json is strict JSON; nothing is left in the temp folder."""
    result = _run("loadtest", "--tables", "2", "--seconds", "5", "--json", env={"TMPDIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert figures["tables"] == 2 and figures["moves"] > 0
    assert figures["errors"] == 0 and figures["lost_moves"] == 0
    assert figures["hands_finished"] > 0  # and seat 0 asked for the next hand: play went on past it
    assert set(figures["latency_ms"]) == {"p50", "p95", "p99", "max"}
    assert list(tmp_path.iterdir()) == []


def test_loadtest_against_a_running_server_has_no_cpu_figure_and_prints_null(tmp_path: Path) -> None:
    env = {"TRUMPS_MAX_TABLES_PER_CLIENT": "0", "TRUMPS_RATE": "1000", "TRUMPS_BURST": "1000"}
    server = ServedProcess(tmp_path / "load.sqlite3", env).start()
    try:
        result = _run("loadtest", "--url", server.ws, "--tables", "1", "--seconds", "1", "--json")
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert figures["server_cpu_ms_per_move"] is None and figures["server_cores_busy"] is None


def test_loadtest_and_serve_refuse_bad_arguments_in_one_line() -> None:
    for args, words in [
        (["loadtest", "--url", "nonsense"], "--url nonsense: give ws://HOST:PORT"),
        (["loadtest", "--url", "ws://[::1"], "--url 'ws://[::1': not a URL"),
        (["loadtest", "--url", "ws://localhost:99999"], "not a URL"),
        (["serve", "--log-level", "loud"], "--log-level loud: choose one of debug, info, warning, error"),
    ]:
        result = _run(*args)
        assert result.returncode == 2 and result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


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
    """Every line is a JSON object, uvicorn's own too (its start and stop, each WebSocket it accepts)."""
    env = {"TRUMPS_LOG_JSON": "1", "TRUMPS_MAX_CONNECTIONS_PER_CLIENT": "1"}
    server = ServedProcess(tmp_path / "log.sqlite3", env, log_level="info").start()

    async def connect() -> None:
        async with websockets.connect(f"{server.ws}/ws/tables/nothing") as ws:
            async with websockets.connect(f"{server.ws}/ws/tables/other") as second:  # one too many
                assert json.loads(await second.recv())["code"] == "too_many_connections"
            await ws.send(json.dumps({"type": "hello", "token": None, "last_seen": None}))
            assert json.loads(await ws.recv())["code"] == "not_found"

    try:
        with urllib.request.urlopen(f"{server.http}/healthz", timeout=10) as response:
            assert response.status == 200
        asyncio.run(connect())
    finally:
        log = server.stop()
    lines = [json.loads(line) for line in log.splitlines()]
    request = next(line for line in lines if line.get("path") == "/healthz")
    assert request["method"] == "GET" and request["status"] == 200 and request["level"] == "info"
    assert any("serving on" in line["message"] for line in lines)
    assert any("WebSocket /ws/tables/nothing" in line["message"] for line in lines)  # uvicorn's
    refusals = {line["code"]: line for line in lines if "code" in line}  # each refusal, with the client's address
    assert refusals["not_found"]["table"] == "nothing" and refusals["not_found"]["client"] == "127.0.0.1"
    assert refusals["too_many_connections"]["table"] == "other"


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=10) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


@pytest.mark.parametrize("stop", ["SIGTERM", "Ctrl-C"])
def test_serve_logs_only_json_lines_when_stopped_while_its_computer_players_think(tmp_path: Path, stop: str) -> None:
    """Stopped by a process manager (SIGTERM to the server) or by Ctrl-C (SIGINT to its whole process group) while
    computer seats think in worker processes: nothing writes a line that is not JSON, neither the workers nor
    multiprocessing's resource tracker (which warns of the semaphores of a pool not shut down)."""
    port = free_port()
    command = [*TRUMPS, "serve", "--port", str(port), "--db", str(tmp_path / "bots.sqlite3"), "--log-json"]
    # stderr is a pipe, read to its end: the workers and the resource tracker write to it too, and it ends only
    # once the last of them has exited.
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    http = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                _get(f"{http}/healthz")
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        bots = [{"seat": seat, "level": "hard"} for seat in (1, 2, 3)]
        body = json.dumps({"players": 4, "computer": bots, "clock": 1}).encode()
        request = urllib.request.Request(f"{http}/api/tables", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            table_id = json.loads(response.read())["table"]["id"]
        # Seat taken, first hand started, then a computer seat's trump: the workers are up, and busy from then on.
        while int(str(_get(f"{http}/api/tables/{table_id}")["event_no"])) < 3:
            assert time.monotonic() < deadline, "no computer seat moved"
            time.sleep(0.05)
    finally:
        if stop == "SIGTERM":
            server.send_signal(signal.SIGTERM)
        else:
            os.killpg(server.pid, signal.SIGINT)
        _, stderr = server.communicate(timeout=30)
    lines = stderr.decode().splitlines()
    assert any("Application shutdown complete" in line for line in lines)
    assert [line for line in lines if not _json_object(line)] == []


def _json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
