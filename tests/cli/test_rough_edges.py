"""What a new user of ``trumps`` meets first: --version, --help, mistyped values, a busy port, out-of-range values."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from rules.cli import app
from rules.cli.usage import readable

TRUMPS = [sys.executable, "-c", "from rules.cli import main; main()"]


def on_a_full_disk(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``trumps ARGS > /dev/full``, with ``env`` besides a ``PATH`` (and no language but what ``env`` says)."""
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [*TRUMPS, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", **env},
            check=False,
        )


def in_shell(line: str, *args: str, **options: Any) -> subprocess.CompletedProcess[Any]:
    """The shell ``line`` run, its ``TRUMPS`` the command with ``args``: for what a shell does to a command that
    :mod:`subprocess` does not (a descriptor closed, ``<&-``, ``>&-``; a pipe whose reader has gone)."""
    command = '"$0" -c "from rules.cli import main; main()" "$@"'
    return subprocess.run(
        ["/bin/sh", "-c", line.replace("TRUMPS", command), sys.executable, *args], timeout=120, check=False, **options
    )


ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "spec" / "vectors" / "full_game_duel.jsonl"


def trumps(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TRUMPS, *args],
        input=data.decode() if data is not None else None,
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_version_and_licence() -> None:
    done = trumps("--version")
    assert done.returncode == 0 and done.stdout.startswith("trumps ") and done.stdout.count("\n") == 1
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


@pytest.mark.parametrize("command", ["replay", "solve", "arena", "bench", "serve", "play"])
def test_help_names_values_plainly(command: str) -> None:
    done = trumps(command, "--help")
    assert done.returncode == 0
    for raw in ("{log}", "{bots}", "<bool>", "<str>", "<int", "<float"):
        assert raw not in done.stdout, (raw, done.stdout)
    if command in ("replay", "solve"):
        assert f"trumps {command} [OPTIONS] LOG" in done.stdout
    if command == "arena":
        assert "BOTS..." in done.stdout and "--games" in done.stdout and " N " in done.stdout
        assert "SEED" in done.stdout


def _placeholders(command: Any, path: str = "trumps") -> Iterator[tuple[str, str, str]]:
    for param in command.params:
        if param.metavar is not None and not getattr(param, "is_flag", False):
            yield path, param.name, param.metavar
    for name, sub in getattr(command, "commands", {}).items():
        yield from _placeholders(sub, f"{path} {name}")


def test_every_value_in_the_help_is_named_by_what_it_is() -> None:
    """``--save FILE``, ``--hello-timeout SECONDS``: never an option's own name repeated (``--save SAVE``)."""
    command = typer.main.get_command(app)
    readable(command)
    words = {"N", "SEED", "PORT", "SEAT", "FILE", "SECONDS", "LEVEL", "MODE", "ADDRESSES", "LANG", "HOST", "URL"}
    words |= {"RATE", "DB", "DIR", "LOG", "BOTS"}
    named = {(path, name): placeholder for path, name, placeholder in _placeholders(command)}
    assert {placeholder for placeholder in named.values()} <= words, named
    assert named[("trumps play", "save")] == "FILE" and named[("trumps serve", "hello_timeout")] == "SECONDS"
    assert len(named) > 30, named


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["arena", "random", "greedy", "--games", "x"], "--games"),
        (["bench", "--seconds", "0"], "--seconds"),
        (["bench", "--seconds", "-1"], "--seconds"),
        (["bench", "--seconds", "inf"], "--seconds"),
        (["loadtest", "--think", "inf"], "--think"),
        (["serve", "--rate", "nan"], "--rate"),
        (["serve", "--computer-delay", "inf"], "--computer-delay"),
        (["replay"], "LOG"),
        (["no-such-command"], "no-such-command"),
    ],
)
def test_a_mistyped_value_gets_one_line(args: list[str], named: str) -> None:
    done = trumps(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and named in done.stderr, done.stderr
    assert "╭" not in done.stderr and "Traceback" not in done.stderr


def test_arena_refuses_a_noise_out_of_range() -> None:
    done = trumps("arena", "random", "greedy:2", "--games", "2")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == "bot 'greedy:2': the noise 2 is out of range: a chance of a random move is 0 to 1"


def test_arena_gives_a_clean_sweep_a_bound_and_says_why() -> None:
    done = trumps("arena", "random", "greedy", "--games", "8", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    pair = data["pairs"][0]
    assert (pair["a_wins"], pair["draws"], pair["b_wins"]) == (0, 0, 8)  # greedy beats random every time here
    bound = data["elo_bounds"]["greedy"]
    assert 0 < bound["at_least"] < data["elo"]["greedy"] and "clean sweep" in bound["why"]
    table = trumps("arena", "random", "greedy", "--games", "8", "--seed", "1")
    assert "greedy ≥ +" in table.stdout and "no finite Elo" in table.stdout


def test_replay_says_in_one_line_that_a_log_is_valid_and_how_the_game_stands() -> None:
    done = trumps("replay", str(DUEL))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"{DUEL}: a valid log of 72 events; the game is over: seat 0 lost\n"
    lines = DUEL.read_text().splitlines()
    done = trumps("replay", "-", data=("\n".join(lines[:5]) + "\n").encode())
    assert done.stdout == "standard input: a valid log of 4 events; seat 0 is to beat or take\n"
    # --json and the errors are as before: the state alone; on error nothing on stdout, one line on stderr.
    assert json.loads(trumps("replay", str(DUEL), "--json").stdout)["phase"] == "finished"
    bad = trumps("replay", "-", data=("\n".join([*lines[:4], lines[6]]) + "\n").encode())
    assert bad.returncode == 1 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("vector", "standing", "told"),
    [
        ("draw_by_agreement", "the game is over: a draw (by agreement)", "Draw by agreement."),
        ("resign_after_a_seat_went_out", "the game is over: seat 1 resigned", "West resigned."),
        (
            "repetition_draw",
            "the game is over: a draw (the same position came up three times)",
            "Draw: the same position came up for the third time.",
        ),
    ],
)
def test_replay_and_review_say_how_a_game_ended(vector: str, standing: str, told: str) -> None:
    path = ROOT / "spec" / "vectors" / f"{vector}.jsonl"
    done = trumps("replay", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.endswith(f"; {standing}\n"), done.stdout
    review = trumps("review", str(path))
    assert review.returncode == 0, review.stderr
    assert review.stdout.splitlines()[-2].strip() == told, review.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["replay"], "cannot read -: standard input is closed"),
        (["solve"], "cannot read -: standard input is closed"),
        (["review"], "cannot read -: standard input is closed"),
        (["--lang", "ro", "solve"], "nu se poate citi -: intrarea standard este închisă"),  # the command's own words
        (["--lang", "ru", "review"], "не удаётся прочитать -: стандартный ввод закрыт"),
    ],
)
def test_a_closed_standard_input_cannot_be_read(args: list[str], said: str) -> None:
    # With descriptor 0 closed Python has no sys.stdin at all.
    closed = in_shell("TRUMPS - <&-", *args, capture_output=True, text=True)
    assert (closed.returncode, closed.stdout) == (1, "")
    assert closed.stderr == said + "\n"


@pytest.mark.parametrize("args", [["--version"], []])
def test_a_closed_pipe_ends_the_version_and_the_bare_command_quietly(args: list[str]) -> None:
    """`trumps --version | head -c0`: nothing said (and status 1), as by every command (docs/generated/cli.md)."""
    done = in_shell("{ sleep 0.2; TRUMPS; } | true", *args, stderr=subprocess.PIPE, text=True)
    assert (done.returncode, done.stderr) == (0, "")  # true's status; the command's own standard error is empty


def test_the_version_speaks_the_language_of_the_environment_when_it_cannot_write() -> None:
    done = on_a_full_disk(["--version"], LANG="ru_RU.UTF-8")
    assert (done.returncode, done.stderr) == (1, "не удаётся записать в стандартный вывод: на устройстве нет места\n")


@pytest.mark.parametrize("command", ["replay", "solve", "review"])
def test_a_file_on_standard_input_is_left_just_after_the_bad_line(command: str, tmp_path: Path) -> None:
    """Log format §L6.5: nothing after the bad line is read, so the next reader of the file finds it all."""
    log = tmp_path / "bad.jsonl"
    log.write_bytes(b'{"type": "start"}\nxx\n' + b'{"type": "start"}\n' * 2000)
    with log.open("rb") as stdin:
        done = in_shell("TRUMPS - ; head -c 17", command, stdin=stdin, capture_output=True)
    assert done.stderr == b"line 2: malformed JSON: Expecting value at column 1\n"
    assert done.stdout == b'{"type": "start"}'  # what the next reader of the file read: the line after the bad one


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["replay", str(DUEL)], "cannot write to standard output: Bad file descriptor"),
        (["replay", "--json", str(DUEL)], "cannot write to standard output: Bad file descriptor"),
        (["review", str(DUEL)], "cannot write to standard output: Bad file descriptor"),
        (["--version"], "cannot write to standard output: Bad file descriptor"),
        (["--lang", "fi", "replay", str(DUEL)], "vakiotulosteeseen ei voi kirjoittaa: virheellinen tiedostokuvaaja"),
    ],
)
def test_a_closed_standard_output_is_said_in_one_line(args: list[str], said: str) -> None:
    """`trumps replay LOG >&-`: Python has no sys.stdout at all, and would print nothing and exit 0."""
    closed = in_shell(
        "TRUMPS >&-", *args, stderr=subprocess.PIPE, text=True, env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"}
    )
    assert (closed.returncode, closed.stderr) == (1, said + "\n")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["replay", "x.jsonl", "--json=1"], "Option '--json' does not take a value"),
        (["solve", "x.jsonl", "--move"], "Option '--move' requires an argument"),
    ],
)
def test_a_misused_option_is_refused_by_the_command_it_belongs_to(args: list[str], said: str) -> None:
    """Log format §L6.4: a wrong command line is a usage message and status 2; it names the command whose help
    tells how to use the option (typer's parser leaves these two refusals without the command)."""
    done = trumps(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"trumps {args[0]}: {said} (see trumps {args[0]} --help)\n"


def test_solve_refuses_move_and_all_together_as_a_wrong_command_line(tmp_path: Path) -> None:
    """Two options that exclude each other are a wrong command line, status 2 as for every command's (§L6.4),
    said before the log is read."""
    done = CliRunner().invoke(app, ["solve", str(tmp_path / "unread.jsonl"), "--move", "1", "--all"])
    assert (done.exit_code, done.stdout, done.stderr) == (2, "", "--move and --all: choose one\n")


def test_serve_refuses_a_busy_port_before_creating_the_database(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = trumps("serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite3"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (
        f"trumps serve: cannot listen on 127.0.0.1:{port}: the port is in use by another program "
        "(choose another with --port)"
    )
    assert not (tmp_path / "t.sqlite3").exists()


def test_solve_says_for_which_seat() -> None:
    lines = DUEL.read_text().splitlines()
    done = trumps("solve", "-", "--json", data=("\n".join(lines[:72]) + "\n").encode())
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["seat"] == 1 and data["exact"] is True and data["value"] in (1, 0, -1)


# --- what was typed, named in one line (rules.cli.usage.shell_word) -----------------------------------------


@pytest.mark.parametrize("command", ["replay", "review", "solve"])
def test_a_log_that_cannot_be_read_is_named_in_one_line(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(app, [command, "no\nsuch.jsonl"])
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == "cannot read $'no\\nsuch.jsonl': No such file or directory\n"


def test_replays_refusal_of_a_log_it_cannot_read_stays_english_in_every_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Log format §L6.3 and docs/translations.md: ``cannot read LOG: REASON`` is English, its reason included,
    whatever language the command speaks; solve says the same refusal in its own language."""
    from rules.locale import use_language

    monkeypatch.chdir(tmp_path)
    try:
        replayed = CliRunner().invoke(app, ["--lang", "cs", "replay", "missing.jsonl"])
        solved = CliRunner().invoke(app, ["--lang", "cs", "solve", "missing.jsonl"])
    finally:
        use_language("en")
    assert (replayed.exit_code, replayed.stdout) == (1, "")
    assert replayed.stderr == "cannot read missing.jsonl: No such file or directory\n"
    assert solved.exit_code == 1 and "No such file" not in solved.stderr and "missing.jsonl" in solved.stderr


def test_replay_names_a_valid_log_in_one_line_whatever_it_is_called(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, shown in [("a\nb.jsonl", "$'a\\nb.jsonl'"), ("my game.jsonl", "'my game.jsonl'")]:
        Path(name).write_bytes(DUEL.read_bytes())
        done = CliRunner().invoke(app, ["replay", name])
        assert (done.exit_code, done.stderr) == (0, "")
        assert done.stdout == f"{shown}: a valid log of 72 events; the game is over: seat 0 lost\n"


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--lang", "x\ny", "replay", "-"], 2, "--lang $'x\\ny': choose one of en, ro, fi, cs, ky, ru"),
        (
            ["play", "--no-save", "--level", "very\nhard"],
            2,
            "--level $'very\\nhard': choose one of easy, medium, hard, perfect",
        ),
        (
            ["play", "--save", "no folder\n/hand.jsonl"],
            1,
            "cannot save the log to $'no folder\\n/hand.jsonl': No such file or directory",
        ),
        (
            ["serve", "--log-level", "lo\tud"],
            2,
            "trumps serve: --log-level $'lo\\tud': choose one of debug, info, warning, error",
        ),
        (
            ["loadtest", "--url", "nonsense\r\n"],
            2,
            "trumps loadtest: --url $'nonsense\\r\\n': give ws://HOST:PORT (or wss://) of a running server",
        ),
    ],
)
def test_a_value_with_a_line_break_is_refused_in_one_line(
    args: list[str], status: int, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where play would save
    done = CliRunner().invoke(app, args, input="")
    assert (done.exit_code, done.stderr) == (status, message + "\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full to write to")
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["replay", str(DUEL)], "cannot write to standard output: No space left on device"),
        (["replay", "--json", str(DUEL)], "cannot write to standard output: No space left on device"),
        (["review", str(DUEL)], "cannot write to standard output: No space left on device"),
        (["replay", "--help"], "cannot write to standard output: No space left on device"),
        (["--lang", "cs", "replay", str(DUEL)], "nelze zapsat na standardní výstup: na zařízení není místo"),
    ],
)
def test_an_output_that_cannot_be_written_is_said_in_one_line(args: list[str], said: str) -> None:
    """A full disk under `trumps replay LOG > file` is one line on standard error and status 1, not a traceback."""
    done = on_a_full_disk(args, COLUMNS="100")
    assert (done.returncode, done.stderr) == (1, said + "\n")
