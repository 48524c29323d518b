"""The engine, the log reader and the players need only pydantic and transitions; the web stack is an extra."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

# Make every module of the command line and the web stack unimportable, as on a machine without them.
_BLOCK = textwrap.dedent(
    """
    import sys
    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {blocked!r}:
                raise ImportError(f"No module named {{name!r}}", name=name)
    sys.meta_path.insert(0, Block())
    """
)


def _run(blocked: set[str], code: str) -> subprocess.CompletedProcess[str]:
    program = _BLOCK.format(blocked=blocked) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)


def test_the_engine_imports_without_the_command_line_and_the_web_stack() -> None:
    result = _run(
        {"typer", "rich", "click", "starlette", "uvicorn", "websockets", "httpx"},
        """
        from rules import Game, RuleSet, read_log
        import rules.players, rules.core, rules.machine
        game = Game(RuleSet(), seed=1)
        print(game.phase, sorted(m for m in sys.modules if m.startswith("rules.cli") or m.startswith("rules.server")))
        """,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "trump_choice []\n"


# The package is not published: the extra is installed from the checkout, with this environment's pip.
PIP = os.path.relpath(Path(sys.executable).parent / "pip")
INSTALL = f"install it from the project's folder: {PIP} install -e '.[server]'"


def test_serve_without_the_server_extra_says_how_to_install_it() -> None:
    result = _run(
        {"uvicorn", "starlette", "websockets"},
        """
        from rules.cli import app
        app(["serve"])
        """,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"trumps serve: the server needs the 'server' extra (uvicorn is missing); {INSTALL}"
    ]


def test_loadtest_without_the_server_extra_says_how_to_install_it() -> None:
    result = _run({"websockets"}, "from rules.cli import app\napp(['loadtest', '--url', 'ws://127.0.0.1:9'])\n")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"trumps loadtest: the server needs the 'server' extra (websockets is missing); {INSTALL}"
    ]
