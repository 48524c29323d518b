"""A real PostgreSQL for the tests: found, or started as a throwaway cluster. Never a mock.

Where the tests find one: ``TRUMPS_TEST_POSTGRES`` (a URL to a server where the user may
create databases), else the local server on 127.0.0.1:5432 as user ``postgres``. ``run-tests``
makes sure one of the two exists: on a machine without PostgreSQL it installs Debian's and
starts a throwaway cluster with this module (``python tests/postgres.py start DIR``).

Each test gets databases of its own (:func:`fresh_database`). The test that stops and restarts
the database server runs its own :class:`Cluster`, never the shared one.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

LOCAL = "postgresql://postgres@127.0.0.1:5432/postgres"


def server_url() -> str:
    """The URL of the PostgreSQL server the tests use (its maintenance database); fails if there is none."""
    url = os.environ.get("TRUMPS_TEST_POSTGRES") or LOCAL
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as error:
        raise RuntimeError(
            f"the tests need PostgreSQL: none answers at {url} ({error}). "
            "Run ./run-tests (it starts one) or set TRUMPS_TEST_POSTGRES"
        ) from None
    return url


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def fresh_database(prefix: str = "trumps_test") -> str:
    """A new, empty database on the test server; its URL."""
    url = server_url()
    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return _with_database(url, name)


def drop_database(url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _bin(program: str) -> str:
    found = shutil.which(program) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))[::-1]), None)
    if found is None:
        raise RuntimeError(f"{program} not found: install Debian's postgresql")
    return found


class Cluster:
    """A throwaway PostgreSQL cluster in ``directory`` on a free port, owned by whoever starts it.

    PostgreSQL refuses to run as root: as root, the cluster runs as the ``postgres`` system user.
    """

    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.directory = directory
        self.port = port or free_port()
        self.data = directory / "data"
        self._user = "postgres" if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        if self._user is not None:
            command = ("runuser", "-u", self._user, "--", *command)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def create(self) -> Cluster:
        self.directory.mkdir(parents=True, exist_ok=True)
        if self._user is not None:
            user = pwd.getpwnam(self._user)
            os.chown(self.directory, user.pw_uid, user.pw_gid)
        self._run(_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        return self

    def start(self) -> Cluster:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.directory / "log"), "-w", "start")
        return self

    def stop(self) -> None:
        """Stop at once (``-m fast``): open connections are cut, as when a database server goes down."""
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")


def main(argv: list[str]) -> int:
    """``python tests/postgres.py start DIR``: create (if needed) and start a cluster in DIR; print its URL."""
    if len(argv) != 2 or argv[0] != "start":
        print("usage: python tests/postgres.py start DIR", file=sys.stderr)
        return 2
    directory = Path(argv[1] or tempfile.mkdtemp(prefix="trumps-pg-"))
    cluster = Cluster(directory, port=int(os.environ.get("TRUMPS_TEST_POSTGRES_PORT", "0")) or None)
    if not cluster.data.exists():
        cluster.create()
    cluster.start()
    print(cluster.url)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
