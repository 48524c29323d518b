"""``trumps loadtest``: many concurrent duels of weak players over real WebSockets.

Without ``--url`` it starts its own ``trumps serve`` (``--servers`` of them, which then share
the PostgreSQL database ``--db``) on free loopback ports with a fresh database (and limits
opened for bots); with ``--url`` (once per server) it drives running servers, which
must then allow that many tables and connections per client and that many messages per
second (``trumps serve --max-tables-per-client 0 --max-connections-per-client 0 --rate 1000
--burst 1000``): every client of the load test comes from one address.

Each client plays like a weak person: the ``easy`` level of :mod:`rules.players` (greedy rules of
thumb, a random move one time in three), so hands end and the next ones start (seat 0 asks for
them). With several servers the clients are spread as a load balancer would spread them: table
``i`` is created on server ``i`` (round robin) and each of its seats connects to a server drawn at
random (seeded), so that most tables have their players on two processes, some on one; with
``--by-table`` both seats of a table connect to the server it was created on, as nginx's
``hash $uri consistent`` for ``/ws/`` does (deploy/nginx.conf).

The servers it starts log to temporary files, and play on a temporary SQLite database unless
``--db`` is given; all of them are removed at the end (a log is shown first if its server failed).

It prints moves per second, the latency from sending a move to receiving the update
that shows it (p50, p95, p99, max), the same to the opponent's update, the errors, and the
lost moves (a move the server never confirmed, or confirmed as something else).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer

from rules.cli.extras import require_server
from rules.cli.usage import host_address, os_reason, shell_word
from rules.locale import N_, Message, _, ngettext, number, percent, pgettext, said

if TYPE_CHECKING:  # asyncio and urllib.request only when the load test runs: every --help imports this module
    import asyncio


@dataclass
class _Tally:
    latencies: list[float] = field(default_factory=list)
    opponent_latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    hands: int = 0
    elapsed: float = 0.0
    server_cpu: float | None = None
    """Seconds of CPU the servers it started spent while it played (None: servers it did not start)."""
    cpu_pressure: float | None = None
    """Share of the time some task of this machine waited for a CPU (None: not known here)."""


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux ``/proc``); None when unknown."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return None


def _cpu_of(pids: list[int]) -> float | None:
    """The CPU time of all ``pids`` together; None if there are none or one is unknown."""
    seconds = [_cpu_seconds(pid) for pid in pids]
    known = [value for value in seconds if value is not None]
    return sum(known) if pids and len(known) == len(seconds) else None


def _cpu_stall() -> float | None:
    """Seconds so far during which some runnable task on this machine waited for a CPU (Linux PSI)."""
    try:
        with open("/proc/pressure/cpu") as pressure:
            return int(pressure.readline().rsplit("total=", 1)[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None


def _difference(after: float | None, before: float | None) -> float | None:
    return None if after is None or before is None else after - before


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


async def _seat(url: str, token: str, seat: int, rng: random.Random, think: float, race: _Race, tally: _Tally) -> None:
    """One client: the ``easy`` player's move whenever its view offers some; times each move's round trip.

    It connects and says hello, then waits for every other client to be ready too, so that the
    figures measure play, not the crowd of connections opening. With ``think`` > 0 it waits a
    random time (uniform, ``think`` seconds on average) before each move, as a person would; the
    latency is still measured from the moment the move is sent.
    """
    import asyncio

    import websockets

    from rules.events import event_dict
    from rules.players import make_player
    from rules.state import View

    player = make_player("easy", rng.getrandbits(32))
    table = url.rsplit("/", 1)[1]
    # No permessage-deflate: the server would spend its CPU compressing for a client on loopback.
    async with websockets.connect(url, max_size=2**22, max_queue=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "last_seen": None}))
        message = json.loads(await ws.recv())
        while message["type"] != "update":
            if message["type"] == "error":  # refused (a limit of the server): say which
                raise RuntimeError(f"{message['code']}: {message['message']}")
            message = json.loads(await ws.recv())
        race.ready += 1
        if race.ready == race.clients:
            race.go.set()
        await race.go.wait()
        pending: tuple[int, dict[str, Any], float] | None = None
        moved_at = -1
        while True:
            if message["type"] == "error":
                error = f"{message['code']}: {message['message']}"  # the server's, as the protocol says it
                tally.errors.append(_("seat {seat}: {error}").format(seat=seat, error=error))
                pending = None
            elif message["type"] == "update":
                event_no = message["event_no"]
                sent_at = race.sent.pop((table, event_no), None)
                if sent_at is not None and message["by"] == "player" and (message["event"] or {}).get("seat") != seat:
                    tally.opponent_latencies.append(time.perf_counter() - sent_at)
                if pending is not None and event_no > pending[0]:
                    sent_no, move, sent_at = pending
                    tally.latencies.append(time.perf_counter() - sent_at)
                    shown = {k: v for k, v in (message["event"] or {}).items() if v is not None}
                    if event_no != sent_no + 1 or message["by"] != "player" or shown != move:
                        tally.lost += 1
                    tally.moves += 1
                    pending = None
                view = message["view"]
                if race.stop.is_set():
                    pass
                elif message["hand_end"] is not None:
                    tally.hands += seat == 0
                    if seat == 0 and not message["score"]["match_over"]:
                        await ws.send(json.dumps({"type": "next_hand", "last_seen": event_no}))
                elif view and view["legal_moves"] and event_no > moved_at:
                    chosen = event_dict(player.choose(View.model_validate(view)))
                    move = {k: v for k, v in chosen.items() if v is not None}
                    moved_at = event_no
                    if think:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    pending = (event_no, move, time.perf_counter())
                    race.sent[(table, event_no + 1)] = pending[2]
                    await ws.send(json.dumps({"type": "move", "event": move, "last_seen": event_no}))
            if race.stop.is_set() and pending is None:
                return
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            except TimeoutError:
                if pending is not None:
                    tally.lost += 1
                return


def _event() -> asyncio.Event:
    import asyncio

    return asyncio.Event()


@dataclass
class _Race:
    """Start and stop of the measured run, shared by every client."""

    clients: int
    ready: int = 0
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """When the move that should become event ``n`` of a table was sent (for the opponent's latency)."""
    go: asyncio.Event = field(default_factory=_event)
    stop: asyncio.Event = field(default_factory=_event)


async def _run(
    urls: list[str], tables: int, seconds: float, think: float, seed: int, server_pids: list[int], by_table: bool
) -> _Tally:
    import asyncio

    tally = _Tally()
    seats: list[tuple[str, str, int]] = []
    rng = random.Random(seed)
    for index in range(tables):
        url = urls[index % len(urls)].rstrip("/")
        http = url.replace("ws://", "http://", 1).replace("wss://", "https://", 1)
        created = await asyncio.to_thread(_post, f"{http}/api/tables", {"players": 2})
        table_id = created["table"]["id"]
        joined = await asyncio.to_thread(_post, f"{http}/api/tables/{table_id}/join", {})
        for seat, token in enumerate((created["token"], joined["token"])):
            server = url if by_table else rng.choice(urls).rstrip("/")
            seats.append((f"{server}/ws/tables/{table_id}", token, seat))
    race = _Race(clients=len(seats))
    clients = [
        asyncio.create_task(_seat(ws_url, token, seat, random.Random(rng.getrandbits(32)), think, race, tally))
        for ws_url, token, seat in seats
    ]
    await asyncio.wait([asyncio.create_task(race.go.wait()), *clients], return_when=asyncio.FIRST_COMPLETED)
    race.go.set()  # all ready, or one failed: let the others go rather than wait for it forever
    started, cpu_before, stall_before = time.perf_counter(), _cpu_of(server_pids), _cpu_stall()
    done, _pending = await asyncio.wait(clients, timeout=seconds)
    race.stop.set()
    tally.elapsed = time.perf_counter() - started
    tally.server_cpu = _difference(_cpu_of(server_pids), cpu_before)
    stalled = _difference(_cpu_stall(), stall_before)
    tally.cpu_pressure = None if stalled is None else stalled / tally.elapsed
    for task in done:
        if task.exception() is not None:
            tally.errors.append(_("a client failed: {error!r}").format(error=task.exception()))
    results = await asyncio.gather(*clients, return_exceptions=True)
    failed = [result for result in results if isinstance(result, BaseException)]
    tally.errors += [_("a client failed: {error!r}").format(error=result) for result in failed]
    return tally


def _start_server(sync: str, db: str, logs: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``trumps serve`` on a free port; its log file's name is added to ``logs`` (for removal)."""
    import urllib.request

    port = _free_port()
    command = [sys.executable, "-c", "from rules.cli import main; main()", "serve", "--port", str(port)]
    command += ["--db", db, "--sync", sync, "--max-tables-per-client", "0", "--max-connections-per-client", "0"]
    command += ["--rate", "1000", "--burst", "1000"]
    command += ["--log-level", "warning"]
    # Its log goes to a file, not a pipe nobody would read.
    with tempfile.NamedTemporaryFile(prefix="trumps-loadtest-serve-", suffix=".log", delete=False) as log:
        logs.append(log.name)
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            with open(log.name, errors="replace") as output:
                reason = output.read().strip().splitlines()
            exited = Message(N_("the server exited with status {status}"), status=server.returncode)
            raise RuntimeError(reason[-1] if reason else exited)
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return server, f"ws://127.0.0.1:{port}"
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(Message(N_("the server did not start within {seconds} seconds"), seconds=30))


def _report(
    tables: int,
    think: float,
    tally: _Tally,
    rate: float,
    latency: dict[str, float | None],
    opponent: dict[str, float | None],
) -> None:
    """The figures for people (``--json`` has them under fixed English names)."""
    duels = ngettext("{count} duel for {seconds} s", "{count} duels for {seconds} s", tables)
    duels = duels.format(count=tables, seconds=number(tally.elapsed, 1))
    pace = (
        _("thinking {seconds} s a move on average").format(seconds=number(think, None))
        if think
        else _("no thinking time")
    )
    moves = ngettext("{count} move", "{count} moves", tally.moves).format(count=tally.moves)
    typer.echo(
        _("{duels}, {pace}: {moves}, {rate} moves/s").format(duels=duels, pace=pace, moves=moves, rate=_shown(rate))
    )
    typer.echo(_("latency from a move to the update that shows it: {figures}").format(figures=_latencies(latency)))
    typer.echo(_("latency from a move to the opponent's update: {figures}").format(figures=_latencies(opponent)))
    typer.echo(
        _("hands finished: {hands}; errors: {errors}; lost moves: {lost}").format(
            hands=tally.hands, errors=len(tally.errors), lost=tally.lost
        )
    )


def _latencies(summary: dict[str, float | None]) -> str:
    """``p50 1.2 ms, …, max 8 ms`` in the language spoken (the percentiles keep their usual names)."""
    names = {"max": pgettext("the largest of the latencies", "max")}
    return ", ".join(
        _("{name} {value} ms").format(name=names.get(name, name), value=_shown(value))
        for name, value in summary.items()
    )


def _unreachable(error: BaseException) -> str:
    """Why the servers could not be reached: the system's reason in the language spoken when it is a usual one."""
    reason = getattr(error, "reason", error)  # a URLError wraps the OSError
    if isinstance(reason, OSError) and reason.errno is not None:
        return os_reason(reason)
    return str(reason)


def _summary(seconds: list[float]) -> dict[str, float | None]:
    """Latency percentiles in milliseconds (None, each, when nothing was measured)."""
    ms = sorted(value * 1000 for value in seconds)
    return {
        "p50": _percentile(ms, 0.50),
        "p95": _percentile(ms, 0.95),
        "p99": _percentile(ms, 0.99),
        "max": round(ms[-1], 2) if ms else None,
    }


def _percentile(ordered: list[float], fraction: float) -> float | None:
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 2) if ordered else None


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _shown(value: float | None) -> str:
    """A figure as the language writes numbers; a dash when it is not known."""
    return "–" if value is None else number(value, None)


def check_url(url: str) -> str | None:
    """Why ``url`` is no ``ws://HOST:PORT`` (or ``wss://``) of a server, in the language spoken; None if it is one."""
    give = _("--url {url}: give ws://HOST:PORT (or wss://) of a running server").format(url=shell_word(url))
    if any(char.isspace() or not char.isprintable() for char in url):  # urlsplit would drop a tab or a line feed
        return give
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (reading it checks it: a port that is no number or out of range raises)
    except ValueError as error:
        return _("--url {url}: not a URL ({why})").format(url=shell_word(url), why=error)
    if parts.scheme not in ("ws", "wss") or not host_address(parts.hostname or ""):
        return give
    return None


# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_("Drive TABLES concurrent duels of weak players; print moves/s, latency percentiles, errors, lost moves.")


def loadtest(
    tables: Annotated[int, typer.Option(help=N_("Concurrent duels (two WebSocket clients each)."), min=1)] = 200,
    url: Annotated[
        list[str] | None,
        typer.Option(help=N_("ws://HOST:PORT of a running server (repeat for several); default: start servers.")),
    ] = None,
    servers: Annotated[
        int, typer.Option(help=N_("How many servers to start (without --url); >1 needs --db."), min=1)
    ] = 1,
    db: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Database of the servers it starts: an SQLite file or a postgresql:// URL (several servers need "
                "PostgreSQL); default: a fresh SQLite file."
            )
        ),
    ] = None,
    seconds: Annotated[
        float, typer.Option(help=N_("How long to play, after every table is set up."), min=1, max=86400)
    ] = 20,
    sync: Annotated[
        str, typer.Option(help=N_("SQLite synchronous mode of the server it starts: full or normal."))
    ] = "full",
    think: Annotated[
        float, typer.Option(help=N_("Mean seconds a client waits before each move (0: none)."), min=0, max=3600)
    ] = 0,
    seed: Annotated[int, typer.Option(help=N_("Seed of the clients' random moves."))] = 1,
    by_table: Annotated[
        bool, typer.Option("--by-table", help=N_("Connect both seats of a table to the same server (else: at random)."))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the figures as one JSON object."))] = False,
) -> None:
    import asyncio

    require_server("loadtest")
    from rules.server.limits import Settings

    try:  # the server's own check of its mode, before any server is started (which would refuse it with status 1)
        Settings(sync=sync).check({"sync": "--sync"})  # type: ignore[arg-type]
    except ValueError as error:
        typer.echo(f"trumps loadtest: {said(error)}", err=True)
        raise typer.Exit(2) from None
    urls = list(url or [])
    for address in urls:
        wrong = check_url(address)
        if wrong is not None:
            typer.echo(f"trumps loadtest: {wrong}", err=True)
            raise typer.Exit(2)
    started: list[subprocess.Popen[bytes]] = []
    logs: list[str] = []
    scratch: str | None = None
    if not urls:
        if servers > 1 and db is None:
            several = _("several servers share a PostgreSQL database: give --db postgresql://...")
            typer.echo(f"trumps loadtest: {several}", err=True)
            raise typer.Exit(2)
        if db is None:
            scratch = tempfile.mkdtemp(prefix="trumps-loadtest-")
        database = db or os.path.join(scratch or "", "load.sqlite3")
        try:
            for _server in range(servers):
                server, address = _start_server(sync, database, logs)
                started.append(server)
                urls.append(address)
        except RuntimeError as error:
            _stop(started, logs, scratch)
            cannot = _("cannot start a server: {why}").format(why=said(error))
            typer.echo(f"trumps loadtest: {cannot}", err=True)
            raise typer.Exit(1) from None
        shown = database.split("@")[-1] if database.startswith("postgres") else database
        started_at = _("started trumps serve at {urls} (database {db}, synchronous={sync})")
        typer.echo(started_at.format(urls=", ".join(urls), db=shown, sync=sync), err=True)
    try:
        pids = [server.pid for server in started]
        tally = asyncio.run(_run(urls, tables, seconds, think, seed, pids, by_table))
    except (OSError, urllib.error.URLError) as error:
        cannot = _("cannot reach {urls}: {why}").format(urls=", ".join(map(shell_word, urls)), why=_unreachable(error))
        typer.echo(f"trumps loadtest: {cannot}", err=True)
        raise typer.Exit(1) from None
    finally:
        _stop(started, logs, scratch)
    latency, opponent = _summary(tally.latencies), _summary(tally.opponent_latencies)
    rate = round(tally.moves / tally.elapsed, 1)
    server_cpu = tally.server_cpu
    cpu_per_move = None if server_cpu is None or not tally.moves else round(server_cpu / tally.moves * 1000, 3)
    busy = None if server_cpu is None else round(server_cpu / tally.elapsed, 2)
    if as_json:
        figures: dict[str, object] = {"tables": tables, "think": think, "seconds": round(tally.elapsed, 2)}
        figures |= {"servers": len(urls), "moves": tally.moves, "moves_per_second": rate, "latency_ms": latency}
        figures |= {"opponent_latency_ms": opponent}
        figures |= {"hands_finished": tally.hands, "errors": len(tally.errors), "lost_moves": tally.lost}
        figures |= {"server_cpu_ms_per_move": cpu_per_move, "server_cores_busy": busy}
        figures |= {"machine_cpu_pressure": _rounded(tally.cpu_pressure, 2)}
        typer.echo(json.dumps(figures, allow_nan=False))
    else:
        _report(tables, think, tally, rate, latency, opponent)
        if started:
            typer.echo(
                _("servers: {ms} ms of CPU per move, {cores} cores busy").format(
                    ms=_shown(cpu_per_move), cores=_shown(busy)
                )
            )
        if tally.cpu_pressure is not None:
            typer.echo(
                _("CPU pressure on this machine (share of time something waited for a CPU): {share}").format(
                    share=percent(tally.cpu_pressure)
                )
            )
    for message in tally.errors[:10]:
        typer.echo(f"  {message}", err=True)
    if any("too many connections" in message or "too_many_connections" in message for message in tally.errors):
        one = _("every client comes from one address: serve with --max-connections-per-client 0")
        typer.echo(f"  ({one})", err=True)
    if tally.errors or tally.lost:
        raise typer.Exit(1)


def _stop(started: list[subprocess.Popen[bytes]], logs: list[str], scratch: str | None) -> None:
    """Stop the servers it started, then remove their logs and the temporary database."""
    for server in started:
        server.terminate()
    for server in started:
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    for name in logs:
        with contextlib.suppress(OSError):
            os.remove(name)
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)
