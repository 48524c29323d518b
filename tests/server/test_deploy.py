"""The shipped nginx configuration (deploy/nginx.conf, shown in docs/deploy.md): the real ``nginx -t`` passes it,
and a duel plays through it in front of two server processes, one of them killed on the way."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import time
from pathlib import Path

from postgres import drop_database, free_port, fresh_database
from server_helpers import Seat, Server, hand_over, play_until
from websockets.exceptions import ConnectionClosed

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def test_the_nginx_config_is_valid() -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"  # run-tests installs Debian's nginx
    result = subprocess.run([nginx, "-t", "-c", str(CONFIG)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_the_docs_show_the_shipped_config() -> None:
    deploy = (CONFIG.parents[1] / "docs" / "deploy.md").read_text()
    assert "deploy/nginx.conf" in deploy and "proxy_set_header Upgrade $http_upgrade;" in deploy


def test_play_goes_through_nginx_and_survives_a_dead_process(tmp_path: Path) -> None:
    """The shipped config in front of two processes on one database: a duel through nginx, one process killed."""
    database = fresh_database()
    servers = [Server(database, TRUMPS_RATE="1000", TRUMPS_BURST="1000", TRUMPS_BOT_PROCESSES="0") for _ in "ab"]
    port = free_port()
    config = CONFIG.read_text()
    config = config.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    config = config.replace("127.0.0.1:8001", f"127.0.0.1:{servers[0].port}")
    config = config.replace("127.0.0.1:8002", f"127.0.0.1:{servers[1].port}")
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
    proxy = Server(database)
    proxy.port = port  # the client's view: one address, nginx's
    try:
        for server in servers:
            server.start()
        deadline = time.monotonic() + 20
        while proxy.get("/healthz")[0] != 200:
            assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
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
        nginx.terminate()
        nginx.wait(10)
        for server in servers:
            server.stop()
        drop_database(database)
