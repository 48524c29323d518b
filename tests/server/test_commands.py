"""``trumps serve`` refuses bad settings in one line and logs as asked; ``trumps loadtest`` runs end to end."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import typer
import websockets
from postgres import drop_database, fresh_database
from serving import ServedProcess, free_port

from rules.cli import app, translated
from rules.cli.usage import readable, run
from rules.server.limits import Settings, proxy_entries

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
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == "trumps serve: TRUMPS_RATE: 'fast' is not a number written in digits (such as 20 or 0.5)"
    )
    result = _run("serve", "--port", "1", "--sync", "sometimes")
    assert result.returncode == 2 and "--sync: 'sometimes' is not full or normal" in result.stderr
    result = _run("serve", "--port", "1", "--rules-url", "rules.example")
    assert result.returncode == 2
    assert result.stderr.strip() == "trumps serve: --rules-url: 'rules.example' is not an http:// or https:// address"


def _serve_here(
    monkeypatch: pytest.MonkeyPatch, *args: str, env: dict[str, str] | None = None
) -> tuple[int, str, dict[str, Any]]:
    """``trumps serve ARGS`` in-process with only ``env`` of the settings' variables: its exit status, what it
    wrote, and what it would have given uvicorn.run (``{}`` if it stopped before; no app, no log set up)."""
    import uvicorn

    import rules.server.app
    import rules.server.logs

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: started.update(kwargs, app=app))
    monkeypatch.setattr(rules.server.app, "create_app", lambda settings: settings)
    monkeypatch.setattr(rules.server.logs, "configure", lambda level, as_json: None)
    for variable in [f"TRUMPS_{field.name.upper()}" for field in fields(Settings)] + ["TRUMPS_LOG_JSON"]:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in (env or {}).items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setattr(sys, "argv", ["trumps", "serve", *args])
    command = typer.main.get_command(app)
    readable(command)
    translated(command)
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        try:
            run(command, "trumps")
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
    return code, said.getvalue(), started


@pytest.mark.parametrize(
    ("args", "env", "refusal"),
    [
        # the known hole: uvicorn takes any entry it cannot read as a name, which matches no connecting address
        (
            (),
            {"TRUMPS_TRUSTED_PROXIES": "a\nb"},
            "TRUMPS_TRUSTED_PROXIES: 'a\\nb' contains a line feed, a tab or another",
        ),
        (("--trusted-proxies", "10.0.0.0/33"), {}, "--trusted-proxies: '10.0.0.0/33' is not an IP address or network"),
        (("--trusted-proxies", "10.0.0.1;10.0.0.2"), {}, "'10.0.0.1;10.0.0.2' is not an IP address or network"),
        (("--trusted-proxies", "127.0.0.1, localhost"), {}, "'localhost' is not an IP address or network"),
        (("--trusted-proxies", "10.0.0.1,"), {}, "--trusted-proxies: '' is not an IP address or network"),
        (("--trusted-proxies", "10.0.0.1/8"), {}, "write 10.0.0.0/8 for the network, or 10.0.0.1 for one address"),
        (("--trusted-proxies", "*, 10.0.0.1"), {}, "--trusted-proxies: * (every address) cannot be listed with other"),
        # numbers: digits (and one decimal point where a fraction makes sense), nothing Python would add
        (("--burst", " 5 "), {}, "--burst: ' 5 ' is not a whole number written in digits (such as 40)"),
        (("--burst", "5.0"), {}, "--burst: '5.0' is not a whole number written in digits"),
        ((), {"TRUMPS_BURST": "+5"}, "TRUMPS_BURST: '+5' is not a whole number written in digits"),
        ((), {"TRUMPS_HISTORY": "1_000"}, "TRUMPS_HISTORY: '1_000' is not a whole number written in digits"),
        ((), {"TRUMPS_SEND_QUEUE": "0x10"}, "TRUMPS_SEND_QUEUE: '0x10' is not a whole number written in digits"),
        ((), {"TRUMPS_BOT_PROCESSES": "\u0665"}, "TRUMPS_BOT_PROCESSES: '\u0665' is not a whole number"),
        ((), {"TRUMPS_FLOOD_CLOSE": "true"}, "TRUMPS_FLOOD_CLOSE: 'true' is not a whole number"),
        ((), {"TRUMPS_RATE": "5 "}, "TRUMPS_RATE: '5 ' is not a number written in digits (such as 20 or 0.5)"),
        ((), {"TRUMPS_RATE": "inf"}, "TRUMPS_RATE: 'inf' is not a number written in digits"),
        ((), {"TRUMPS_RATE": "nan"}, "TRUMPS_RATE: 'nan' is not a number written in digits"),
        ((), {"TRUMPS_HELLO_TIMEOUT": "1e999"}, "TRUMPS_HELLO_TIMEOUT: '1e999' is not a number written in digits"),
        (("--rate", "-1"), {}, "--rate: '-1' is not a number written in digits"),
        ((), {"TRUMPS_RELEASE_SECONDS": "9" * 400}, "TRUMPS_RELEASE_SECONDS: inf is not a finite number"),
        ((), {"TRUMPS_HISTORY": "9" * 20}, "TRUMPS_HISTORY: " + "9" * 20 + " is too large"),
        ((), {"TRUMPS_HISTORY": "9" * 5000}, " is too large"),  # int() itself would refuse so many digits
        ((), {"TRUMPS_HISTORY": str(sys.maxsize + 1)}, f"TRUMPS_HISTORY: {sys.maxsize + 1} is too large"),
        # values that would make a server that cannot work, rather than "no limit"
        (("--max-tables", "0"), {}, "--max-tables must be at least 1, not 0"),
        ((), {"TRUMPS_MAX_CONNECTIONS_PER_TABLE": "0"}, "TRUMPS_MAX_CONNECTIONS_PER_TABLE must be at least 1, not 0"),
        ((), {"TRUMPS_SEND_QUEUE": "0"}, "TRUMPS_SEND_QUEUE must be at least 1, not 0"),
        ((), {"TRUMPS_BOT_THREADS": "0"}, "TRUMPS_BOT_THREADS must be at least 1, not 0"),
        (("--burst", "0"), {}, "--burst must be at least 1, not 0"),
        (("--max-message-bytes", "255"), {}, "--max-message-bytes must be at least 256, not 255"),
        (("--pool-size", "0"), {}, "--pool-size must be at least 1, not 0"),
        (("--rate", "0"), {}, "--rate must be more than 0, not 0.0"),
        (("--hello-timeout", "0.0"), {}, "--hello-timeout must be more than 0, not 0.0"),
        (
            (),
            {"TRUMPS_HARD_MESSAGE_BYTES": "4095"},
            "TRUMPS_HARD_MESSAGE_BYTES must be at least max_message_bytes (4096)",
        ),
        # the one range between two settings names each as it was given, the one given alone too
        (
            ("--max-message-bytes", "70000"),
            {},
            "hard_message_bytes must be at least --max-message-bytes (70000), not 65536",
        ),
        (
            ("--max-message-bytes", "5000"),
            {"TRUMPS_HARD_MESSAGE_BYTES": "4096"},
            "TRUMPS_HARD_MESSAGE_BYTES must be at least --max-message-bytes (5000), not 4096",
        ),
        # texts
        (("--sync", "FULL"), {}, "--sync: 'FULL' is not full or normal"),
        (("--db", ""), {}, "--db: '' is neither an SQLite file name nor a postgresql:// URL"),
        (("--db", ":memory:"), {}, "--db: ':memory:' is neither an SQLite file name nor a postgresql:// URL"),
        (("--db", "sqlite:///trumps.sqlite3"), {}, "--db: 'sqlite:///trumps.sqlite3' is neither an SQLite file"),
        ((), {"TRUMPS_DB": "trumps.sqlite3\n"}, "TRUMPS_DB: 'trumps.sqlite3\\n' contains a line feed"),
        (("--db", "trumps.sqlite3 "), {}, "--db: 'trumps.sqlite3 ' begins or ends with a space"),
        (
            (),
            {"TRUMPS_DB": "postgresql://trumps:secret@db.example/x\t"},
            "TRUMPS_DB: 'postgresql://trumps@db.example/x\\t'",
        ),
        (("--db", "postgresql://trumps:secret@[::1/x"), {}, "--db: the postgresql:// URL cannot be read: Invalid IPv6"),
        (("--rules-url", "https://rules.example/\nx"), {}, "--rules-url: 'https://rules.example/\\nx' contains a line"),
        (("--rules-url", "https://rules.example/full rules"), {}, "contains a space (write it as %20)"),
        (("--rules-url", "https://"), {}, "--rules-url: 'https://' is not an http:// or https:// address"),
        (("--rules-url", "https://rules.example:99999/"), {}, "is not an http:// or https:// address"),
        # the options that are no settings of the server's table
        (("--host", "127.1"), {}, "--host 127.1: not an IP address or a host name"),
        (("--host", "0"), {}, "--host 0: not an IP address or a host name"),  # would listen on every interface
        (("--host", ""), {}, "--host '': not an IP address or a host name"),
        (("--host", "127.0.0.1\n"), {}, "--host $'127.0.0.1\\n': not an IP address or a host name"),
        (("--port", " 8000"), {}, "--port: ' 8000' is not a whole number written in digits (such as 40)"),
        (("--port", "8_000"), {}, "--port: '8_000' is not a whole number written in digits (such as 40)"),
        (("--port", "70000"), {}, "Invalid value for '--port': Input should be less than or equal to 65535"),
        ((), {"TRUMPS_LOG_JSON": "maybe"}, "(env var: 'TRUMPS_LOG_JSON'): Input should be a valid boolean"),
    ],
)
def test_serve_refuses_each_bad_value_in_one_line_before_starting(
    monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], env: dict[str, str], refusal: str
) -> None:
    code, said, started = _serve_here(monkeypatch, "--port", str(free_port()), *args, env=env)
    assert (code, started) == (2, {}), said
    assert said.startswith("trumps serve: ") and said.count("\n") == 1 and refusal in said, said
    assert "secret" not in said


def test_serve_accepts_what_the_docs_promise(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = str(tmp_path / "my tables.sqlite3")  # a space inside a file name is a file name
    proxies = " 10.0.0.5 , 10.0.1.0/24,::1, fd00::/8,10.0.2.0/255.255.255.0"
    env = {"TRUMPS_HISTORY": "0", "TRUMPS_RELEASE_SECONDS": ".5", "TRUMPS_LOG_JSON": " Yes "}
    options = ["--db", db, "--rate", "2.5", "--burst", "007", "--max-tables-per-client", "0", "--host", "localhost"]
    options += ["--trusted-proxies", proxies, "--rules-url", "https://rules.example/svoi-kozyri/#intro"]
    code, said, started = _serve_here(monkeypatch, "--port", str(free_port()), *options, env=env)
    assert code == 0 and started, said
    settings = started["app"]
    assert (settings.db, settings.rate, settings.burst, settings.history, settings.release_seconds) == (
        db,
        2.5,
        7,
        0,
        0.5,
    )
    assert started["log_config"] is None  # --log-json, from the variable
    assert started["forwarded_allow_ips"] == ["10.0.0.5", "10.0.1.0/24", "::1", "fd00::/8", "10.0.2.0/255.255.255.0"]
    for proxies, given in (("", []), (" * ", ["*"])):
        code, said, started = _serve_here(
            monkeypatch, "--port", str(free_port()), "--db", db, "--trusted-proxies", proxies
        )
        assert code == 0 and started["forwarded_allow_ips"] == given, said


def test_serve_says_what_libpq_makes_of_a_url_in_one_line_without_its_password(monkeypatch: pytest.MonkeyPatch) -> None:
    """A URL that splits into its parts is PostgreSQL's to judge (status 1): a port that is no number, or several
    hosts (libpq tries each in turn), whose ports Python's urlsplit cannot read, must not end in a traceback."""
    for url in (
        "postgresql://trumps:hunter2@127.0.0.1:notaport/trumps",
        "postgresql://trumps:hunter2@127.0.0.1:1,127.0.0.1:9/trumps",  # nothing listens on either
    ):
        code, said, started = _serve_here(monkeypatch, "--port", str(free_port()), "--db", url)
        assert (code, started) == (1, {}) and said.count("\n") == 1, said
        assert "postgresql://trumps@127.0.0.1:" in said and "hunter2" not in said and "Traceback" not in said


def test_uvicorn_trusts_the_checked_entries_as_the_docs_say() -> None:
    """What uvicorn (the reference: it applies the setting) makes of the entries passed and of those refused."""
    from uvicorn.middleware.proxy_headers import _TrustedHosts

    trusted = _TrustedHosts(proxy_entries("10.0.0.5, 10.0.1.0/24 ,::1"))
    assert all(host in trusted for host in ("10.0.0.5", "10.0.1.200", "::1"))
    assert "10.0.0.6" not in trusted and "127.0.0.1" not in trusted
    # the client is the right-most hop not trusted; the left-most if all are
    assert trusted.get_trusted_client_address("203.0.113.9, 198.51.100.7, 10.0.1.3") == ("198.51.100.7", 0)
    assert trusted.get_trusted_client_address("10.0.0.5, 10.0.1.3") == ("10.0.0.5", 0)
    every = _TrustedHosts(proxy_entries(" * "))
    assert "203.0.113.9" in every and every.get_trusted_client_address("203.0.113.9, 198.51.100.7") == (
        "203.0.113.9",
        0,
    )
    assert "127.0.0.1" not in _TrustedHosts(proxy_entries(""))
    # given as they are, these would have trusted nothing (a * among others is no "every address"): hence refused
    for entry in ("localhost", "10.0.0.1/8", "10.0.0.0/33", "10.0.0.1;10.0.0.2", "*, 10.0.0.1"):
        hosts = ("127.0.0.1", "10.0.0.2") if entry.startswith("*") else ("127.0.0.1", "10.0.0.1", "10.0.0.2")
        assert not any(host in _TrustedHosts(entry) for host in hosts), entry
        with pytest.raises(ValueError, match="trusted_proxies"):
            proxy_entries(entry)


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
        # what the URL parser would pass over or a connection choke on: a host with a line feed, space or control
        (["loadtest", "--url", "ws://a\nb:1"], "--url $'ws://a\\nb:1': give ws://HOST:PORT"),
        (["loadtest", "--url", "ws://a b:1"], "--url 'ws://a b:1': give ws://HOST:PORT"),
        (["loadtest", "--url", "ws://a\x01:1"], "give ws://HOST:PORT"),
        (["loadtest", "--url", "ws://127.0.0.1:9\n"], "--url $'ws://127.0.0.1:9\\n': give ws://HOST:PORT"),
        (["loadtest", "--url", "ws://127.1:9"], "--url ws://127.1:9: give ws://HOST:PORT"),
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
