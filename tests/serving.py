"""A real ``trumps serve`` in a subprocess on a free loopback port, with a real SQLite file.

Shared by the server tests and the browser tests (``pythonpath`` in pyproject.toml puts
``tests/`` on the import path).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServedProcess:
    """``trumps serve --port PORT --db DB`` with extra environment ``env`` (limits as ``TRUMPS_<NAME>``)."""

    def __init__(self, db: Path, env: dict[str, str] | None = None, port: int | None = None) -> None:
        self.db = db
        self.env = env or {}
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServedProcess:
        """Start the server and wait until it answers the lobby."""
        command = [sys.executable, "-c", "from rules.cli import main; main()", "serve"]
        command += ["--port", str(self.port), "--db", str(self.db), "--log-level", "warning"]
        env = {**os.environ, **self.env}
        self.proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"trumps serve exited: {self.proc.stderr.read().decode() if self.proc.stderr else ''}"
                )
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
        return self.proc.stderr.read().decode() if self.proc.stderr else ""
