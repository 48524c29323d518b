"""``trumps play`` and whatever a player types, or cannot type: bytes that are not UTF-8, digits that are not
numbers, a number of thousands of digits, a standard input that is closed. Each is refused like a typo, or ends the
game like Ctrl-D; none is a traceback. And the words of each language the help names, and a log of its own for
every game."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules.cli.session import InputError, _default_log_path, _typed_commands, help_text, parse_card
from rules.locale import LANGUAGES, pgettext, use_language

PLAY = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--level", "easy", "--no-save"]


def test_a_byte_that_is_not_utf8_is_refused_like_a_typo() -> None:
    """In a UTF-8 locale (``cs_CZ.UTF-8``) Python reads standard input strictly, as ``utf-8:strict`` asks here."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", COLUMNS="100")
    done = subprocess.run(
        [*PLAY, "--seed", "1"], input=b"\xff\xfe\nq\n", capture_output=True, env=env, timeout=60, check=False
    )
    assert "Traceback" not in done.stderr.decode(errors="replace"), done.stderr.decode(errors="replace")
    assert (done.returncode, done.stderr) == (0, b"")
    assert "no such suit '\ufffd\ufffd'" in done.stdout.decode(), done.stdout.decode()
    assert "You stopped the game." in done.stdout.decode()


def test_a_closed_standard_input_ends_the_game_like_ctrl_d() -> None:
    closed = subprocess.run(
        ["/bin/sh", "-c", '"$0" "$@" <&-', *PLAY], capture_output=True, text=True, timeout=60, check=False
    )
    assert (closed.returncode, closed.stderr) == (0, "")
    assert "End of input (Ctrl-D): the game stops here." in closed.stdout


@pytest.mark.parametrize("typed", ["²", "⑶", "7²"])
def test_a_digit_that_is_not_a_number_is_no_card(typed: str) -> None:
    with pytest.raises(InputError, match=f"no such card '{typed}'"):
        parse_card(typed, ["6S", "7S", "8S"])


def test_digits_of_any_script_are_a_card_number() -> None:
    assert parse_card("٣", ["6S", "7S", "8S"]) == parse_card("３", ["6S", "7S", "8S"]) == "8S"


def test_a_number_of_thousands_of_digits_is_out_of_range_and_named_short() -> None:
    with pytest.raises(InputError) as refused:
        parse_card("1" * 5000, ["6S", "7S", "8S"])
    assert str(refused.value) == "there is no card number 111111111…: your cards are numbered 1 to 3"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_help_names_the_languages_own_word_for_every_command(lang: str) -> None:
    """As it does for taking and the opponent's cards (``t, ia``, ``k, cărți``): ``h, sfat``, not ``h, hint``."""
    use_language(lang)
    try:
        text, typed = help_text(), _typed_commands()
        for key, command, context in (
            ("u", "undo", "to take back a move"),
            ("h", "hint", "for a hint"),
            ("q", "quit", "to stop the game"),
            ("?", "help", "for help"),
        ):
            word = pgettext(f"words typed {context}, separated by spaces", command).split()[0]
            assert word != command and typed[word] == command
            assert f"\n  {key}, {word} " in text, (key, word)
            assert f"\n  {key}, {command} " not in text
    finally:
        use_language("en")


def test_games_started_in_the_same_second_do_not_share_a_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    first = tmp_path / "trumps-20250101-120000.jsonl"
    first.write_text("a finished game\n")
    now = datetime.datetime(2025, 1, 1, 12, 0, 0)
    assert [_default_log_path(now), _default_log_path(now)] == [
        Path("trumps-20250101-120000-2.jsonl"),
        Path("trumps-20250101-120000-3.jsonl"),
    ]
    assert first.read_text() == "a finished game\n"
    assert _default_log_path(now.replace(second=1)) == Path("trumps-20250101-120001.jsonl")


def test_what_looks_like_rich_markup_is_printed_as_typed(tmp_path: Path) -> None:
    """A line typed, echoed through a pipe, and a path given are text: ``[/]`` once ended the game in a MarkupError."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="100")
    log = tmp_path / "[b]game.jsonl"
    done = subprocess.run(
        [*PLAY[:-1], "--save", str(log)],
        input="[/]\n[red]x\nq\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert "> [/]\nno such suit '[/]'" in done.stdout and "> [red]x\nno such suit '[red]x'" in done.stdout
    assert f"Log saved to '{log}'" in done.stdout and log.exists()
