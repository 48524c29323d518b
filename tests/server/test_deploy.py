"""The shipped nginx configuration (deploy/nginx.conf, shown in docs/deploy.md): the real ``nginx -t`` passes it,
and a duel plays through it in front of two server processes, one of them killed on the way."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import re
import resource
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import websockets
from postgres import drop_database, free_port, fresh_database
from server_helpers import Seat, Server, hand_over, play_until
from websockets.exceptions import ConnectionClosed

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def _usual_file_limit() -> None:
    """The usual limit on open files of a shell (1024), under which nginx is started by hand."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def test_the_nginx_config_is_valid() -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"  # run-tests installs Debian's nginx
    result = subprocess.run(
        [nginx, "-t", "-c", str(CONFIG)], capture_output=True, text=True, timeout=60, preexec_fn=_usual_file_limit
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr
    # Each player takes two connections and two files of a worker: worker_rlimit_nofile makes room for them all
    assert "exceed open file resource limit" not in result.stderr, result.stderr


def test_the_docs_show_the_shipped_config() -> None:
    deploy = (CONFIG.parents[1] / "docs" / "deploy.md").read_text()
    assert "deploy/nginx.conf" in deploy and "proxy_set_header Upgrade $http_upgrade;" in deploy


def _nginx(tmp_path: Path, servers: list[Server], workers: str = "auto") -> tuple[subprocess.Popen[bytes], int]:
    """The shipped config on a free port in front of ``servers`` (each upstream's two ``server`` lines become one
    per server, as docs/deploy.md says to add them), with ``workers`` worker processes, started; (nginx, its port)."""
    port = free_port()
    config = CONFIG.read_text()
    config = config.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    config = config.replace("worker_processes auto;", f"worker_processes {workers};")
    pair = re.compile(r"( +)server 127\.0\.0\.1:8001( [^;]*);\n +server 127\.0\.0\.1:8002\2;\n")
    assert len(pair.findall(config)) == 2, "both upstreams list the processes 8001 and 8002"
    config = pair.sub(
        lambda lines: "".join(f"{lines[1]}server 127.0.0.1:{server.port}{lines[2]};\n" for server in servers), config
    )
    config = config.replace("pid /tmp/trumps-nginx.pid;", f"pid {tmp_path}/nginx.pid;")
    # Its scratch directories here, so that it runs without root too.
    scratch = " ".join(
        f"{kind}_temp_path {tmp_path}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    config = config.replace("http {", "http {\n    " + scratch, 1)
    (tmp_path / "nginx.conf").write_text(config)
    nginx = subprocess.Popen(
        [shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )
    return nginx, port


def test_every_location_forwards_the_clients_address_host_and_scheme() -> None:
    """A location with a proxy_set_header of its own drops the server block's: each one must say all three."""
    locations = re.findall(r"location [^{]*\{(.*?)\n        \}", CONFIG.read_text(), re.S)
    proxied = [body for body in locations if "proxy_pass" in body]
    # and those that answer in JSON a body over the limit, no process, the requests nginx cannot read (five), a method
    # it refuses and a path denied to the public
    assert len(proxied) == 4 and len(locations) == 13
    for body in proxied:
        # $remote_addr, not $proxy_add_x_forwarded_for: nginx is the edge, the client's own header is dropped
        for header in ("Host $host", "X-Forwarded-For $remote_addr", "X-Forwarded-Proto $scheme"):
            assert f"proxy_set_header {header};" in body, body


def _create_from(port: int, address: str, forwarded: str | None = None) -> int:
    """POST /api/tables through nginx from the loopback ``address`` (any of 127/8), with a client's own
    X-Forwarded-For if ``forwarded``; the HTTP status."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
    headers = {"Content-Type": "application/json"} | ({"X-Forwarded-For": forwarded} if forwarded else {})
    try:
        conn.request("POST", "/api/tables", body=json.dumps({"players": 2}), headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


async def _open_from(port: int, address: str, forwarded: str | None = None) -> str:
    """A WebSocket through nginx from ``address``: the type (or error code) of the server's first answer."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    url = f"ws://127.0.0.1:{port}/ws/tables/nothing"
    async with websockets.connect(url, local_addr=(address, 0), additional_headers=headers) as ws:
        try:  # a refused connection is told at once; an admitted one waits for hello (a ping answers)
            answer = json.loads(await asyncio.wait_for(ws.recv(), 1))
        except TimeoutError:
            await ws.send(json.dumps({"type": "ping"}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return str(answer.get("code", answer["type"]))


def _start_behind(nginx: subprocess.Popen[bytes], proxy: Server, servers: list[Server]) -> None:
    """Start ``servers`` and wait until nginx (``proxy``: its address) answers for them."""
    for server in servers:
        server.start()
    deadline = time.monotonic() + 20
    while proxy.get("/healthz")[0] != 200:
        assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
        time.sleep(0.1)


def _stop_behind(nginx: subprocess.Popen[bytes], servers: list[Server], database: str) -> None:
    nginx.terminate()
    nginx.wait(10)
    for server in servers:
        server.stop()
    drop_database(database)


def test_nginx_forwards_each_players_address_and_a_spoofed_one_is_not_believed(tmp_path: Path) -> None:
    """One table and one WebSocket per address: the limits count players (nginx's address would be one for all),
    and a client's own X-Forwarded-For does not make it someone else."""
    database = fresh_database()
    server = Server(database, TRUMPS_MAX_TABLES_PER_CLIENT="1", TRUMPS_MAX_CONNECTIONS_PER_CLIENT="1")
    nginx, port = _nginx(tmp_path, [server])
    proxy = Server(database)
    proxy.port = port
    try:
        _start_behind(nginx, proxy, [server])
        assert _create_from(port, "127.0.0.2") == 200
        assert _create_from(port, "127.0.0.2") == 429  # its one table
        assert _create_from(port, "127.0.0.3") == 200  # another player, not nginx's 127.0.0.1 again
        assert _create_from(port, "127.0.0.3", forwarded="127.0.0.9") == 429  # still 127.0.0.3
        assert _create_from(port, "127.0.0.4", forwarded="127.0.0.2") == 200  # not 127.0.0.2
        # From nginx's own address, which the server trusts as a proxy: appended to, the client's own header
        # would be believed (here: 127.0.0.2, who has its table, then anyone new)
        assert _create_from(port, "127.0.0.1", forwarded="127.0.0.2") == 200  # 127.0.0.1's first table
        assert _create_from(port, "127.0.0.1", forwarded="127.0.0.8") == 429  # still 127.0.0.1
        table_id = proxy.get("/api/tables")[1]["tables"][0]["id"]

        async def sockets() -> None:
            held = await websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/x", local_addr=("127.0.0.2", 0))
            try:
                assert await _open_from(port, "127.0.0.2") == "too_many_connections"
                assert await _open_from(port, "127.0.0.2", forwarded="127.0.0.7") == "too_many_connections"
                assert await _open_from(port, "127.0.0.1", forwarded="127.0.0.2") == "pong"  # nginx's address
                assert await _open_from(port, "127.0.0.3") == "pong"
            finally:
                await held.close()

        asyncio.run(sockets())

        # The analysis board takes a log of up to 512 KB (docs/protocol.md): nginx lets such a body through to the
        # server, and answers any other body over its own limit as the server would, in JSON.
        padded = json.dumps({"type": "start", "format": 1, "players": 2, "dealer": 0, "padding": "x" * 200_000})
        status, answer = proxy.post("/api/replay", {"log": padded + "\n"})
        assert (status, len(answer["plies"])) == (200, 1), answer
        status, answer = proxy.post("/api/tables", {"players": 2, "padding": "x" * 100_000})
        assert (status, answer["type"], answer["code"]) == (413, "error", "too_large"), answer

        # HTTP/1.0 allows a request without Host: nginx sends it on with its server_name, not without a Host (which
        # the process refused with a plain-text 400)
        status, kind, body = _raw(port, b"GET /api/config HTTP/1.0\r\n\r\n")
        assert (status, kind, json.loads(body)["type"]) == (200, "application/json", "config"), body
        # a process's own 403 (a token that holds no seat) passes as it is, not as nginx's 403 of /metrics
        status, answer = proxy.post(f"/api/tables/{table_id}/leave", {"token": "x"})
        assert (status, answer["code"]) == (403, "bad_token"), answer
    finally:
        nginx.terminate()
        nginx.wait(10)
        server.stop()
        drop_database(database)


def test_play_goes_through_nginx_and_survives_a_dead_process(tmp_path: Path) -> None:
    """The shipped config in front of two processes on one database: a duel through nginx, one process killed."""
    database = fresh_database()
    servers = [Server(database, TRUMPS_RATE="1000", TRUMPS_BURST="1000", TRUMPS_BOT_PROCESSES="0") for _ in "ab"]
    nginx, port = _nginx(tmp_path, servers)
    proxy = Server(database)
    proxy.port = port  # the client's view: one address, nginx's
    try:
        _start_behind(nginx, proxy, servers)
        _, created = proxy.post("/api/tables", {"players": 2})
        table_id = created["table"]["id"]
        _, joined = proxy.post(f"/api/tables/{table_id}/join", {})
        url = f"{proxy.ws}/ws/tables/{table_id}"

        async def play() -> None:
            seats = [Seat(url, token, seat) for seat, token in enumerate((created["token"], joined["token"]))]
            for seat in seats:
                await seat.connect()
            await play_until(seats, lambda seat: seat.event_no >= 12, timeout=60)
            servers[0].kill()  # some connections were on it; nginx sends the new ones to the other
            for seat in seats:
                with contextlib.suppress(ConnectionClosed, TimeoutError):
                    await seat.send({"type": "ping"})
                    while True:
                        await seat.receive(timeout=1)
                await seat.close()
                seen, last = seat.event_no, seat.last
                await seat.connect(last_seen=seen)
                seat.last, seat.moved_at = last, -1
            await play_until(seats, hand_over, timeout=60)
            for seat in seats:
                await seat.close()

        asyncio.run(play())
        assert proxy.get("/readyz") == (200, {"status": "ready"})  # the survivor answers for the site
    finally:
        _stop_behind(nginx, servers, database)


def test_a_rolling_restart_through_nginx_leaves_every_table_reachable(tmp_path: Path) -> None:
    """docs/deploy.md's rolling restart through the shipped config: each process in turn stopped (SIGTERM) while
    players connect, started again on its port, and fail_timeout waited out; then, with the last one stopped, every
    table's players get back in at once. (With max_fails=1 on the WebSockets' upstream, nginx let a process it had
    marked failed back in through one connection per fail_timeout until that connection ended, and a WebSocket
    lasts a game: all but one of them got 502.)"""
    database = fresh_database()
    servers = [Server(database) for _ in "ab"]
    nginx, port = _nginx(tmp_path, servers, workers="1")  # one worker: one view of which process failed
    proxy = Server(database)
    proxy.port = port

    async def reconnect(tables: int) -> list[websockets.ClientConnection]:
        """A player per table connects through nginx at once, as pages do after 1012; each socket is served."""
        sockets = await asyncio.gather(*(websockets.connect(f"{proxy.ws}/ws/tables/t{i}") for i in range(tables)))
        for ws in sockets:
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"
        return list(sockets)

    async def restart() -> None:
        players: list[websockets.ClientConnection] = []
        for server in servers:
            server.terminate()
            assert server.proc is not None and server.proc.wait(20) == -signal.SIGTERM
            players += await reconnect(12)  # nginx finds the process gone and sends them to the other
            server.start()
            while server.get("/readyz")[0] != 200:
                await asyncio.sleep(0.1)
            await asyncio.sleep(5.5)  # fail_timeout, as the page says
        servers[0].terminate()  # the first one again: its players reconnect to the second
        assert servers[0].proc is not None and servers[0].proc.wait(20) == -signal.SIGTERM
        players += await reconnect(12)
        for ws in players:
            await ws.close()

    try:
        _start_behind(nginx, proxy, servers)
        asyncio.run(restart())
    finally:
        _stop_behind(nginx, servers, database)


def _answer(port: int, method: str, path: str, headers: dict[str, str]) -> tuple[int, str | None, bytes]:
    """One request to nginx on ``port``: its status, content type and body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=b"{}" if method == "POST" else None, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        conn.close()


def test_nginx_answers_in_json_when_no_process_answers(tmp_path: Path) -> None:
    """nginx's own errors when no process answers (502, 504) are the protocol's JSON error, `unavailable` (503), as the
    servers give it, not nginx's HTML page: for a lobby request and a WebSocket's opening alike."""
    nobody = Server("unused")  # never started: its port refuses connections
    nginx, port = _nginx(tmp_path, [nobody])
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                answers = [
                    _answer(port, "POST", "/api/tables", {"Content-Type": "application/json"}),
                    _answer(port, "GET", "/api/tables", {}),
                    _answer(port, "GET", "/ws/tables/x", upgrade),
                ]
                break
            except ConnectionRefusedError:
                assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        for status, kind, body in answers:
            assert (status, kind) == (503, "application/json"), (status, kind, body)
            answer = json.loads(body)
            assert (answer["type"], answer["code"]) == ("error", "unavailable"), answer
    finally:
        nginx.terminate()
        nginx.wait(10)


def _raw(port: int, request: bytes, address: str = "127.0.0.1") -> tuple[int, str | None, bytes]:
    """``request`` as sent, byte for byte (http.client would refuse to send most of these), from the loopback
    ``address``: status, type, body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0)) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers.get("Content-Type"), body


def test_nginx_answers_in_json_when_it_cannot_read_a_request(tmp_path: Path) -> None:
    """nginx's own refusals of a request it cannot read are the protocol's JSON errors too, with their status: a path
    holding %00, a request line that is no HTTP, a missing Host (400, bad_request), a header line over nginx's buffers
    (400, too_large) and a request line over them (414, too_large), a Transfer-Encoding nginx does not take (501) and
    an HTTP version it does not speak (505, both bad_request). The refusals of the request line come before nginx
    knows any URI: a named location (error_page 400 @bad_request) answered them with 500."""
    nobody = Server("unused")  # never started: none of these requests reaches a process
    nginx, port = _nginx(tmp_path, [nobody])
    end = b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    requests = {
        b"GET /api/tables/a%00b" + end: (400, "bad_request"),
        b"GET /api/tables/%00" + end: (400, "bad_request"),
        b"POST /api/tables/x/join%00" + end: (400, "bad_request"),
        b"GET /ws/tables/a%00b" + end: (400, "bad_request"),
        b"GET /../../etc/passwd" + end: (400, "bad_request"),
        b"NONSENSE\r\n\r\n": (400, "bad_request"),
        b"GET /api/tables HTTP/1.1\r\nConnection: close\r\n\r\n": (400, "bad_request"),  # no Host
        b"GET /api/tables HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n": (400, "bad_request"),
        b"GET /api/tables HTTP/1.1\r\nHost: a\r\nX-Long: " + b"x" * 10_000 + b"\r\n\r\n": (400, "too_large"),
        b"GET /api/tables/" + b"x" * 10_000 + end: (414, "too_large"),
        b"GET /api/tables?" + b"x" * 10_000 + end: (414, "too_large"),
        b"POST /api/tables HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n": (
            501,
            "bad_request",
        ),
        b"GET /api/tables HTTP/2.0\r\nHost: a\r\nConnection: close\r\n\r\n": (505, "bad_request"),
        b"GET /.nginx/bad_request" + end: (400, "bad_request"),  # asked for directly: the same answer
        b"TRACE /api/tables" + end: (405, "bad_request"),  # a method nginx refuses itself
    }
    # not for the public (the config allows them from nginx's machine only): no such path, in JSON
    outside = {b"GET /metrics" + end: (404, "not_found"), b"GET /readyz" + end: (404, "not_found")}
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                answers = {request: _raw(port, request) for request in requests}
                answers |= {request: _raw(port, request, "127.0.0.2") for request in outside}
                requests |= outside
                break
            except ConnectionRefusedError:
                assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        for request, (status, kind, body) in answers.items():
            said = request[:40]
            assert (status, kind) == (requests[request][0], "application/json"), (said, status, kind, body[:80])
            answer = json.loads(body)
            assert (answer["type"], answer["code"]) == ("error", requests[request][1]), (said, answer)
            assert set(answer) == {"type", "code", "message"}, answer
    finally:
        nginx.terminate()
        nginx.wait(10)
