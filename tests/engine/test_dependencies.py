"""The engine, the log reader and the players need only pydantic and transitions; the web stack is an extra."""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
        "trumps serve: the server needs the 'server' extra (uvicorn is missing): pip install 'your-trumps[server]'"
    ]


def test_loadtest_without_the_server_extra_says_how_to_install_it() -> None:
    result = _run({"websockets"}, "from rules.cli import app\napp(['loadtest', '--url', 'ws://127.0.0.1:9'])\n")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "trumps loadtest: the server needs the 'server' extra (websockets is missing): "
        "pip install 'your-trumps[server]'"
    ]
