"""``trumps --help`` and each command's ``--help`` in the language of the environment, and English unchanged.

The help texts are English messages in the code; the command line translates them when it builds
its commands. A pseudo-locale (every letter accented) shows that no help text escapes the catalogs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
import typer.core

import rules.cli
from rules.cli import app, language_asked, speak_typer_words, translated
from rules.cli.usage import readable

from .test_terminal_languages import pseudo
from .test_terminal_languages import pseudo_locale as pseudo_locale  # the fixture, reused

COMMANDS = ["play", "replay", "solve", "arena", "bench", "spec", "serve", "loadtest"]
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def flat(text: str) -> str:
    """``text`` without the frames rich draws and without spaces, so that help wrapped anywhere (even inside a
    long URL) reads whole."""
    return re.sub(r"[│╭╮╰╯─\s]", "", text)


def trumps_help(args: list[str], **variables: str) -> str:
    environ = {key: value for key, value in os.environ.items() if key not in LANGUAGE_VARIABLES}
    environ |= {"COLUMNS": "100", "TERMINAL_WIDTH": "100", "NO_COLOR": "1"} | variables
    command = [sys.executable, "-c", "from rules.cli import main; main()", *args, "--help"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=environ, check=False)
    assert done.returncode == 0, done.stderr
    return flat(done.stdout)


def english_helps(name: str | None) -> list[str]:
    """The English help of the program (``None``) or of one command and of each of its parameters."""
    group = typer.main.get_command(app)
    command = group if name is None else group.commands[name]  # type: ignore[attr-defined]
    texts = [command.help] + [param.help for param in command.params if getattr(param, "help", None)]
    return [text for text in texts if text]


def czech(text: str) -> str:
    rules.locale.use_language("cs")
    try:
        return rules.locale._(text)
    finally:
        rules.locale.use_language("en")


@pytest.mark.parametrize("args", [[], ["arena"]], ids=["trumps", "arena"])
def test_the_help_speaks_czech_from_the_environment(args: list[str]) -> None:
    shown = trumps_help(args, LANGUAGE="cs", LANG="C.UTF-8")
    for english in english_helps(args[0] if args else None):
        assert czech(english) != english
        assert flat(czech(english)) in shown
        assert flat(english) not in shown
    assert flat("Zobrazí tuto nápovědu a skončí.") in shown and flat("Show this message") not in shown
    if args:  # typer's and click's own words too
        assert "Volby" in shown and flat("[výchozí:") in shown and flat("[default:") not in shown
    assert "Použití:trumps" in shown and "Usage" not in shown


def test_lang_on_the_command_line_chooses_the_language_of_the_help() -> None:
    shown = trumps_help(["play", "--lang", "ru"], LANG="cs_CZ.UTF-8")
    assert flat("Число игроков, 2–4.") in shown


@pytest.mark.parametrize("variables", [{"LANG": "C"}, {"LANGUAGE": "en"}, {}], ids=["C", "en", "none"])
def test_english_help_is_unchanged(variables: dict[str, str]) -> None:
    for args in ([], ["arena"], ["replay"]):
        shown = trumps_help(args, **variables)
        for english in english_helps(args[0] if args else None):
            assert flat(english) in shown
        assert flat("Show this message and exit.") in shown and "Options" in shown and "Usage:trumps" in shown


def test_the_language_asked_prefers_a_valid_lang_option() -> None:
    assert language_asked(["play", "--lang=ky"], {"LANGUAGE": "fi"}) == "ky"
    assert language_asked(["arena", "--lang", "de"], {"LC_ALL": "ro_RO.UTF-8"}) == "ro"


@pytest.fixture
def typer_words() -> Iterator[None]:
    saved = typer.core._  # type: ignore[attr-defined]
    yield
    typer.core._ = saved  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_the_pseudo_locale_leaves_no_english_help(
    name: str | None,
    pseudo_locale: None,
    typer_words: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every help text of every command comes from the catalogs: in the pseudo-locale, none is English."""
    monkeypatch.setenv("COLUMNS", "200")  # wide enough that rich crops no long word (a URL) of the help
    command = typer.main.get_command(app)
    readable(command)
    translated(command)
    speak_typer_words()
    with pytest.raises(SystemExit) as done:
        command.main([*([name] if name else []), "--help"], prog_name="trumps")
    assert done.value.code == 0
    shown = flat(capsys.readouterr().out)
    helps = english_helps(name)
    assert helps
    for english in helps:
        assert flat(english) not in shown
        assert flat(pseudo(english)) in shown
    assert flat(pseudo("Show this message and exit.")) in shown
    assert flat("[default:") not in shown and "Options" not in shown and "Usage" not in shown
    assert flat(pseudo("Usage:")) + "trumps" in shown


def test_the_generated_cli_page_is_english_in_any_environment(tmp_path: Path) -> None:
    """docs/generated/cli.md comes from the English texts, whatever language the caller speaks."""
    environ = {key: value for key, value in os.environ.items() if key not in LANGUAGE_VARIABLES}
    environ |= {"LANGUAGE": "cs", "LANG": "ru_RU.UTF-8"}
    command = [sys.executable, "-c", "from rules.cli import main; main()", "spec"]
    command += ["--out", str(tmp_path / "spec"), "--docs", str(tmp_path / "docs")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=environ, check=False)
    assert done.returncode == 0, done.stderr
    assert "zapsáno" in done.stdout  # the command speaks Czech (LANGUAGE comes first); the page does not follow
    root = Path(__file__).resolve().parents[2]
    assert (tmp_path / "docs" / "cli.md").read_bytes() == (root / "docs" / "generated" / "cli.md").read_bytes()
