"""Every number typed for a command's option is read as written in ASCII digits, and anything else is refused in
one line naming the option (docs/generated/cli.md), as ``trumps serve``'s settings are: never taken for another
number (``--seed -5`` dealt as ``--seed 5``, ``5.0`` taken for 5) or for infinity; and so are the environment's
values and the numbers typed at a command's prompt."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from rules.cli import app
from rules.cli.usage import readable, run
from rules.locale import use_language

ROOT = Path(__file__).resolve().parents[2]


def refusal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """The exit status and standard error of ``trumps ARGS`` run as the program runs it (a refusal comes before the
    command does anything)."""
    command = typer.main.get_command(app)
    readable(command)
    monkeypatch.setattr(sys, "argv", ["trumps", *args])
    with pytest.raises(SystemExit) as done:
        run(command, "trumps")
    captured = capsys.readouterr()
    assert captured.out == ""
    return int(done.value.code or 0), captured.err


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["play", "--seed", "-5"], "--seed: '-5' is not a whole number written in digits (such as 40)"),
        (["play", "--seed", "+3"], "--seed: '+3' is not a whole number"),
        (["play", "--players", "2.0"], "--players: '2.0' is not a whole number"),
        (["play", "--seat", " 1"], "--seat: ' 1' is not a whole number"),
        (["play", "--hands", "1_0"], "--hands: '1_0' is not a whole number"),
        (["play", "--dealer", "١"], "--dealer: '١' is not a whole number"),  # an Arabic-Indic one
        (["arena", "random", "greedy", "--games", "1e2"], "--games: '1e2' is not a whole number"),
        (["bench", "--seed", "-1"], "--seed: '-1' is not a whole number"),
        (["solve", "game.jsonl", "--move", "0x1"], "--move: '0x1' is not a whole number"),
        (["solve", "game.jsonl", "--seconds", "inf"], "--seconds: 'inf' is not a number written in digits"),
        (["solve", "game.jsonl", "--seconds", "1e3"], "--seconds: '1e3' is not a number written in digits"),
        (["solve", "game.jsonl", "--seconds", "9" * 400], "--seconds: inf is not a finite number"),
        (["loadtest", "--think", "-0.5"], "--think: '-0.5' is not a number written in digits"),
    ],
)
def test_a_number_not_written_in_digits_is_refused_naming_its_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], shown: str
) -> None:
    status, error = refusal(capsys, monkeypatch, *args)
    assert status == 2 and len(error.splitlines()) == 1, error
    assert error.startswith(f"trumps {args[0]}: {shown}"), error


def test_a_number_in_digits_is_taken_and_its_range_still_checked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    # Taken: the command goes on to read its log, which is not there.
    status, error = refusal(capsys, monkeypatch, "solve", "no-such.jsonl", "--seconds", ".5", "--move", "007")
    assert status == 1 and error.startswith("cannot read no-such.jsonl"), error
    # In digits but out of range: typer's own check, as before.
    status, error = refusal(capsys, monkeypatch, "solve", "no-such.jsonl", "--move", "0")
    assert status == 2 and "'--move': Input should be greater than or equal to 1" in error, error
    # Hundreds of digits: a range's end, not a traceback from dividing by them.
    status, error = refusal(capsys, monkeypatch, "arena", "random", "greedy", "--games", "9" * 400)
    assert status == 2 and "'--games': Input should be less than or equal to 100000" in error, error


def test_the_refusal_speaks_the_language_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    use_language("cs")
    try:
        status, error = refusal(capsys, monkeypatch, "--lang", "cs", "bench", "--seed", "-1")
    finally:
        use_language("en")
    assert status == 2 and error.startswith("trumps bench: --seed: '-1' ") and "whole number" not in error, error


@pytest.mark.parametrize("value", ["false", "off", " 0"])
def test_a_native_path_setting_other_than_0_or_1_is_refused_naming_the_variable(value: str) -> None:
    # Before, anything but "0" and "1" was taken for unset: TRUMPS_NATIVE=false left the native path on.
    done = subprocess.run(
        [sys.executable, "-c", "import rules"],
        capture_output=True,
        text=True,
        env={**os.environ, "TRUMPS_NATIVE": value},
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.splitlines()[-1].endswith(
        f"TRUMPS_NATIVE={value!r} is neither 0 (the pure-Python path) nor 1 (the native path, or fail); "
        "unset or empty: the native path where it is built"
    ), done.stderr


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"TRUMPS_NATIVE": "off"}, "TRUMPS_NATIVE='off' is neither 0 (the pure-Python path) nor 1"),
        ({"TRUMPS_NATIVE": "1", "TRUMPS_CACHE": "."}, "TRUMPS_NATIVE=1, but there is no build of these sources"),
    ],
)
def test_the_command_refuses_a_native_path_setting_in_one_line(
    settings: dict[str, str], words: str, tmp_path: Path
) -> None:
    # Before, the command showed the traceback of its own import, the sentence on its last line.
    command = Path(sys.executable).with_name("trumps")
    done = subprocess.run(
        [str(command), "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, **settings},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"trumps: {words}") and done.stderr.count("\n") == 1, done.stderr


def test_loadtest_refuses_a_synchronous_mode_before_starting_a_server(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, the server it started refused it: status 1, "cannot start a server: trumps serve: sync: ...".
    status, error = refusal(capsys, monkeypatch, "loadtest", "--sync", "FULL")
    assert (status, error) == (2, "trumps loadtest: --sync: 'FULL' is not full or normal\n")


def test_review_takes_an_event_number_in_digits_and_nothing_else_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Before, "²" (a digit to isdigit(), not to int()) and a number of 5,000 digits stopped the review with a traceback.
    from rich.console import Console

    from rules.cli.review import _step_through, told
    from rules.log import read_log_file

    steps = told(read_log_file(ROOT / "spec" / "vectors" / "full_game_duel.jsonl"))
    typed = iter(["²", "9" * 5000, "٣", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    console = Console(file=io.StringIO(), width=100, no_color=True)
    _step_through(console, steps, "http://127.0.0.1:8000/replay")
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    rules = [line for line in shown.splitlines() if "Event " in line and " of " in line]
    assert [rule.split("Event ")[1].split(" of ")[0] for rule in rules] == ["1", "1", str(len(steps)), "3"]


@pytest.mark.parametrize(
    ("bot", "said"),
    [
        ("mcts:inf", "bot 'mcts:inf': 'inf' is not a number"),  # before: a player that never ended its move
        ("mcts:1e-3", "bot 'mcts:1e-3': '1e-3' is not a number"),
        ("greedy: 0.5", "bot 'greedy: 0.5': ' 0.5' is not a number"),
        ("perfect:-1", "bot 'perfect:-1': '-1' must be positive"),
        ("mcts:٣it", "bot 'mcts:٣it': '٣' is not a positive number of iterations"),
        ("mcts: 3it", "bot 'mcts: 3it': ' 3' is not a positive number of iterations"),
    ],
)
def test_arena_reads_a_bots_number_in_digits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bot: str, said: str
) -> None:
    status, error = refusal(capsys, monkeypatch, "arena", "random", bot, "--games", "2")
    assert status == 1 and len(error.splitlines()) == 1 and said in error, error
