"""A real ``trumps serve`` in a subprocess on a free loopback port, with a real SQLite file or PostgreSQL database.

Shared by the server tests and the browser tests (``pythonpath`` in pyproject.toml puts
``tests/`` on the import path).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServedProcess:
    """``trumps serve --port PORT --db DB`` with extra environment ``env`` (limits as ``TRUMPS_<NAME>``)."""

    def __init__(
        self, db: Path | str, env: dict[str, str] | None = None, port: int | None = None, log_level: str = "warning"
    ) -> None:
        self.db = db
        self.log_level = log_level
        self.env = env or {}
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServedProcess:
        """Start the server and wait until it answers the lobby."""
        command = [sys.executable, "-c", "from rules.cli import main; main()", "serve"]
        command += ["--port", str(self.port), "--db", str(self.db), "--log-level", self.log_level]
        env = {**os.environ, **self.env}
        # Its log goes to a file (a pipe nobody reads while it runs could fill up and stall it).
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the server runs; read by output())
        self.proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"trumps serve exited: {self.output()}")
            try:
                urllib.request.urlopen(f"{self.http}/api/tables", timeout=1).read()
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise RuntimeError("trumps serve did not start within 20 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, exactly like a crash; every open connection drops at once."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def terminate(self) -> None:
        """SIGTERM, as a process manager stops a server: it drains, then exits."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)

    def stop(self) -> str:
        """Stop the server (SIGINT, then SIGKILL after 10 s); returns what it wrote to stderr."""
        if self.proc is None:
            return ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.output()

    def output(self) -> str:
        """What the server wrote to stderr so far."""
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")
