"""Every example on the site is checked: logs replay, JSON examples match the schemas, pycon snippets run."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

from rules.log import read_log

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)


def blocks(language: str) -> list[tuple[str, str]]:
    """``(page, code)`` for every fenced block of ``language`` on the site's pages (generated ones included)."""
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        for match in FENCE.finditer(page.read_text(encoding="utf-8")):
            if match["lang"] == language:
                found.append((page.relative_to(DOCS).as_posix(), textwrap.dedent(match["body"])))
    return found


LOGS = blocks("jsonl")
PYCON = blocks("pycon")
JSON = blocks("json")


def test_the_site_has_examples_of_each_kind() -> None:
    pages = {page for page, _ in LOGS}
    assert {"index.md", "generated/events.md"} <= pages
    assert any(page.startswith("generated/snippets/examples/") for page in pages)
    assert len(PYCON) >= 4
    assert len(JSON) >= 8


@pytest.mark.parametrize(("page", "log"), LOGS, ids=[f"{page}#{i}" for i, (page, _) in enumerate(LOGS)])
def test_every_example_log_replays(page: str, log: str) -> None:
    game = read_log(log)
    assert len(game.events) == len(log.strip().splitlines()) - 1


@pytest.mark.parametrize(("page", "code"), PYCON, ids=[f"{page}#{i}" for i, (page, _) in enumerate(PYCON)])
def test_every_pycon_snippet_runs(page: str, code: str) -> None:
    test = doctest.DocTestParser().get_doctest(code, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    cwd = os.getcwd()
    os.chdir(ROOT)  # snippets read spec/ as a reader of the site would, from a clone's root
    try:
        runner.run(test)
    finally:
        os.chdir(cwd)
    assert test.examples, "a pycon block with no example"
    assert runner.failures == 0, f"a snippet on {page} does not run as shown"


@pytest.mark.parametrize(("page", "text"), JSON, ids=[f"{page}#{i}" for i, (page, _) in enumerate(JSON)])
def test_every_json_example_matches_a_schema(page: str, text: str) -> None:
    value = json.loads(text)
    names = ("log.schema.json", "state.schema.json", "protocol.schema.json")
    schemas = [json.loads((ROOT / "spec" / name).read_text()) for name in names if (ROOT / "spec" / name).exists()]
    assert any(jsonschema.Draft202012Validator(schema).is_valid(value) for schema in schemas), text
    if value.get("type") == "position":
        read_log(['{"type": "start"}', text])


def test_the_readme_python_runs() -> None:
    # The README is no page of the site, so the pycon checks above do not see its example.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    codes = [textwrap.dedent(match["body"]) for match in FENCE.finditer(readme) if match["lang"] == "python"]
    assert codes, "the README's example of the engine from Python"
    for code in codes:
        namespace: dict[str, object] = {}
        exec(compile(code, "README.md", "exec"), namespace)
        assert namespace["game"].is_over()  # type: ignore[attr-defined]


def test_the_readme_terminal_sessions_print_what_they_show(tmp_path: Path) -> None:
    # A block of `$ command` lines, each followed by what it prints (standard error included), run as shown.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sessions = [match["body"] for match in FENCE.finditer(readme) if match["body"].startswith("$ ")]
    assert sessions, "the README's terminal session"
    for session in sessions:
        commands, shown, continued = [], [], False
        for line in session.splitlines():
            if line.startswith("$ ") or continued:
                commands.append(line.removeprefix("$ "))
                continued = line.endswith("\\")
            else:
                shown.append(line)
        bin_folder = Path(sys.executable).parent  # where the venv installed `trumps`
        result = subprocess.run(
            ["bash", "-c", "\n".join(commands) + "\n"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PATH": f"{bin_folder}:{os.environ['PATH']}"},
            timeout=120,
        )
        assert result.stdout.splitlines() == shown, session
