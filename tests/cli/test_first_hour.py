"""What a newcomer meets in the terminal (issue 23): the duel's tracker, valued hints, typo suggestions in
every language, the program's own name in what it says, the review of a hand and the board's link, the
careless options of arena and spec, and a start-up that loads nothing heavy."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import rules.players.arena
from rules.cli import app, main, terminal
from rules.cli.arena import processes
from rules.cli.session import Quit, Session, _did_you_mean
from rules.cli.usage import program
from rules.events import Position
from rules.game import Game
from rules.locale import LANGUAGES, _, pgettext, use_language
from rules.log import log_lines, read_log
from rules.players import make_player

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]

# Seat 1 wins by beating 9♣ J♣ with K♥, its trump and its last card; taking loses.
WON = Position(trumps=["S", "H"], hands=[["AS", "7D"], ["KH"]], pile=["9C", "JC"], to_act=1, phase="respond")
WON_LOG = (
    '{"type": "start"}\n{"type": "position", "trumps": ["S", "H"], "hands": [["AS", "7D"], ["KH"]], '
    '"pile": ["9C", "JC"], "to_act": 1, "phase": "respond"}\n'
)


def play_position(position: Position, you: int, lines: list[str], *, tracker: bool = True) -> str:
    """A session on ``position`` answering with ``lines`` (then the input ends); the screen."""
    game = Game.from_position(position)
    typed = iter(lines)
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)
    session = Session(
        game, you, {1 - you: make_player("easy", 1)}, console, lambda _: next(typed, None), tracker=tracker
    )
    with contextlib.suppress(Quit):
        session.run()
    return output.getvalue()


# --- trumps --lang L play: the game speaks L ---------------------------------------------------------


def run_main(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """``trumps ARGV`` as the installed script runs it (``main()``, in-process), reading ``stdin``."""
    monkeypatch.setattr(sys, "argv", ["trumps", *argv])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            main()
    except SystemExit as exit:
        code = int(exit.code or 0)
    finally:
        use_language("en")
    return code, out.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_trumps_lang_play_plays_in_that_language_whatever_the_environment(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = "ru" if lang != "ru" else "fi"
    monkeypatch.setenv("LANGUAGE", other)  # the environment asks for another language: --lang wins
    monkeypatch.setenv("LANG", f"{other}_XX.UTF-8")
    args = ["--lang", lang, "play", "--no-save", "--level", "easy", "--seed", "3", "--hands", "1"]
    code, screen = run_main(args, "h\n1\nq\n", monkeypatch)  # hearts, a card, stop
    assert code == 0, screen
    use_language(lang)
    try:
        greeting = _(
            "{game} — you sit in the South (seat {seat} in the logs) against {opponents}, level {level}, {length}."
        ).format(game=_("Svoi Kozyri"), seat=0, opponents=_("North"), level=_("easy"), length=_("one hand"))
        assert " ".join(greeting.split()) in " ".join(screen.split())
        assert _("You stopped the game.") in screen
        assert _("Move {move} · cards: {counts}, pile {pile}").split("{")[0] in screen
    finally:
        use_language("en")


def test_the_level_is_read_in_any_case_and_the_greeting_says_south() -> None:
    result = runner.invoke(app, ["play", "--no-save", "--level", "EASY", "--seed", "1"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "you sit in the South (seat 0 in the logs) against North, level easy" in result.stdout


def test_the_seed_help_says_which_levels_repeat() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "hard and perfect think against the clock" in " ".join(result.stdout.split())


# --- the duel's tracker and valued hints ------------------------------------------------------------


def test_the_tracker_shows_the_opponents_hand_and_k_hides_it() -> None:
    position = Position(trumps=["S", "H"], hands=[["AS", "7D"], ["KH", "6C"]], pile=["9C"], to_act=1, phase="respond")
    shown = play_position(position, 1, ["k", "k"])
    assert "North" in shown and "holds A♠  7♦" in shown  # the cards neither yours nor on the pile
    assert "Your opponent's cards are hidden (k shows them)." in shown
    assert "Your opponent's cards are shown (k hides them)." in shown
    assert "North holds A♠  7♦." in shown
    hidden = play_position(position, 1, [], tracker=False)
    assert "A♠" not in hidden


def test_a_hint_in_the_duel_says_what_the_move_is_worth() -> None:
    screen = play_position(WON, 1, ["h"])
    assert "hint: K♥ (1) wins." in screen
    assert "Other moves: take (t) loses." in screen


def test_a_hint_when_every_move_loses_says_so() -> None:
    # Seat 0 cannot beat K♠ with diamonds and must take; North then leads its last card and goes out.
    position = Position(trumps=["S", "H"], hands=[["6D", "7D"], ["AS"]], pile=["KS"], to_act=0, phase="respond")
    screen = play_position(position, 0, ["h"])
    assert re.search(r"hint: .+; you are lost whatever you do\.", screen), screen


def test_progress_names_the_move_the_cards_and_a_second_repetition() -> None:
    view = Game.from_position(WON).view(1)
    line = terminal.progress_text(view, ["North", "You"], 7, 2).plain
    assert line == "Move 7 · cards: You 1, North 2, pile 2 · this position has come up twice: a third time is a draw"
    assert "twice" not in terminal.progress_text(view, ["North", "You"], 7, 1).plain


# --- typos in every language ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_mistyped_take_word_is_suggested_in_every_language(lang: str) -> None:
    use_language(lang)
    try:
        words = [
            word for word in pgettext("words typed to take, separated by spaces", "t take").split() if len(word) > 2
        ]
        word = words[-1] if lang != "en" else "take"
        typo = word[:-1] if len(word) > 3 else word + word[-1]
        said = _did_you_mean(typo, moving=True)
        assert said is not None and typo in said, (lang, typo)
    finally:
        use_language("en")


def test_the_newcomers_typos_brat_and_alu_are_suggested() -> None:
    for lang, typo, meant in (("cs", "brat", "brát"), ("ky", "алу", "алуу")):
        use_language(lang)
        try:
            said = _did_you_mean(typo, moving=True)
            assert said is not None and meant in said, said
        finally:
            use_language("en")


# --- the program's name, the review, the board ------------------------------------------------------


def test_the_program_is_named_as_it_can_be_run(monkeypatch: pytest.MonkeyPatch) -> None:
    script = Path(sys.executable).parent / "trumps"
    monkeypatch.setattr(sys, "argv", [str(script)])
    monkeypatch.setenv("PATH", "/nonexistent")
    relative = os.path.relpath(script)
    assert program() == (str(script) if relative.startswith("..") else relative)
    monkeypatch.setenv("PATH", str(script.parent))
    assert program() == "trumps"


def test_after_a_hand_the_log_is_named_with_the_program_and_the_board(tmp_path: Path) -> None:
    log = tmp_path / "hand.jsonl"
    lines = ["h", *(["1", "t"] * 2000)]
    result = runner.invoke(
        app, ["play", "--save", str(log), "--level", "easy", "--seed", "4", "--hands", "1"], input="\n".join(lines)
    )
    assert result.exit_code == 0, result.output
    assert f"(check it with: {program()} replay {log})" in result.stdout
    assert f"Review it move by move: {program()} review {log}" in result.stdout
    found = re.search(r"On the analysis board \(after \S+ serve\): (\S+)", result.stdout)
    assert found is not None
    assert unpacked(found.group(1)) == log.read_text(encoding="utf-8")


def unpacked(link: str) -> str:
    """The log a board link carries, decoded as the board decodes it."""
    packed = re.search(r"#log=([^&]+)&ply=\d+$", link)
    assert packed is not None and link.startswith("http://127.0.0.1:8000/replay#log=")
    data = base64.urlsafe_b64decode(packed.group(1) + "=" * (-len(packed.group(1)) % 4))
    return zlib.decompress(data, -15).decode()


def test_review_tells_the_hand_move_by_move_and_gives_the_board_link(tmp_path: Path) -> None:
    log = tmp_path / "won.jsonl"
    log.write_text(WON_LOG + '{"type": "beat", "seat": 1, "card": "KH"}\n', encoding="utf-8")
    result = runner.invoke(app, ["review", str(log)])
    assert result.exit_code == 0, result.output
    assert "   1. West beat J♣ with K♥." not in result.stdout  # a duel: North, not West
    assert "   1. North beat J♣ with K♥." in result.stdout
    assert "North went out, 1st (move 1)." in result.stdout and "South lost the hand." in result.stdout
    link = runner.invoke(app, ["review", str(log), "--link"]).stdout.strip()
    assert unpacked(link) == "".join(line + "\n" for line in log_lines(read_log(log.read_text(encoding="utf-8"))))
    assert link.endswith("&ply=2")  # the end: the position and the beat played


# --- trumps solve --move and --all --------------------------------------------------------------------


def test_solve_lists_moves_best_first_in_the_games_notation(tmp_path: Path) -> None:
    path = tmp_path / "won.jsonl"
    path.write_text(WON_LOG, encoding="utf-8")
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert (
        lines[1] == "best: beat K♥"
        and lines[2].split() == ["beat", "K♥", "win"]
        and lines[3].split() == ["take", "loss"]
    )


def test_solve_move_n_and_all_value_the_positions_of_the_game(tmp_path: Path) -> None:
    path = tmp_path / "lost.jsonl"
    path.write_text(WON_LOG + '{"type": "take", "seat": 1}\n', encoding="utf-8")  # seat 1 threw its win away
    first = runner.invoke(app, ["solve", str(path), "--move", "1", "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["move"] == 1 and data["seat"] == 1 and data["value"] == 1
    every = runner.invoke(app, ["solve", str(path), "--all"])
    assert every.exit_code == 0, every.output
    heading, row = every.stdout.splitlines()
    assert heading.split() == ["move", "seat", "played", "its", "value", "best"]
    assert row.split() == ["1", "1", "take", "loss", "beat", "K♥:", "win"]
    as_json = json.loads(runner.invoke(app, ["solve", str(path), "--all", "--json"]).stdout)
    assert as_json["moves"][0]["played"] == {"type": "take", "seat": 1}
    assert as_json["moves"][0]["evaluation"]["value"] == 1
    beyond = runner.invoke(app, ["solve", str(path), "--move", "3"])
    assert beyond.exit_code == 1 and beyond.stderr.strip() == "--move 3: the log has 1 move (--move 1 to 2)"


# --- careless options ---------------------------------------------------------------------------------


def test_arena_starts_no_more_processes_than_games_and_processors(monkeypatch: pytest.MonkeyPatch) -> None:
    assert processes(100, 2, processors=8) == 2 and processes(100, 40, processors=2) == 2
    asked: list[int] = []
    real = rules.players.arena.run_arena

    def run_arena(*args: object) -> object:
        asked.append(args[4])  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rules.players.arena, "run_arena", run_arena)
    result = runner.invoke(app, ["arena", "random", "greedy", "--jobs", "100", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert asked and asked[0] <= 2  # 2 games a pair, played as one mirrored set: at most two processes


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", ""], "--out '': an empty name: give the folder to write to"),
        (["--out", "afile"], "--out afile: afile is not a folder"),
        (["--out", "fresh", "--docs", "afile"], "--docs afile: afile is not a folder"),
        (["--out", "afile/spec"], "--out afile/spec: afile is not a folder"),
        # a name is written as a shell reads it back, on one line (rules.cli.usage.shell_word)
        (["--out", "afile/my spec"], "--out 'afile/my spec': afile is not a folder"),
        (["--out", "afile/a\nb"], "--out $'afile/a\\nb': afile is not a folder"),
    ],
)
def test_spec_refuses_a_folder_it_cannot_use_before_writing_anything(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["spec", *args])
    assert result.exit_code == 2
    assert result.stderr.strip() == message
    assert sorted(path.name for path in tmp_path.iterdir()) == ["afile"]  # nothing written, here or in fresh/
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "mine"


# --- start-up --------------------------------------------------------------------------------------------

HEAVY = (
    "rules.game",
    "rules.core",
    "rules.events",
    "rules.players",
    "rules.analysis",
    "rules.server",
    "rules.cli.session",
)


def loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter has loaded after ``code``, one a line."""
    probe = code + "\nimport sys\nprint('\\n'.join(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True, cwd=ROOT
    )
    return done.stdout.split()


def test_trumps_version_loads_neither_the_engine_nor_typers_checks_nor_rich() -> None:
    code = "import sys\nsys.argv = ['trumps', '--version']\nfrom rules.cli import main\nmain()"
    modules = loaded_after(code)
    assert modules[0] == "trumps"  # what main() printed comes first: trumps 0.1.0
    heavy = [name for name in modules if name.startswith((*HEAVY, "pydantic", "rich", "starlette", "uvicorn"))]
    assert heavy == []


def test_help_loads_neither_the_engine_nor_typers_checks_nor_rich() -> None:
    """``trumps --help`` and every ``trumps COMMAND --help`` (one with a --lang given, as the README writes it),
    run one after another in one interpreter: none of them has loaded pydantic, rich or the engine."""
    lines = [["--help"], ["--lang", "ru", "play", "--help"]] + [[name, "--help"] for name in COMMAND_NAMES]
    code = "import sys\nfrom rules.cli import main\n"
    for line in lines:
        code += f"sys.argv = ['trumps', *{line!r}]\ntry:\n    main()\nexcept SystemExit as done:\n"
        code += "    assert done.code == 0, done.code\n"
    modules = loaded_after(code)
    assert "Usage:" in modules and "Использование:" in modules  # the helps were printed, in both languages
    heavy = [name for name in modules if name.startswith((*HEAVY, "pydantic", "rich", "starlette", "uvicorn"))]
    assert heavy == []


COMMAND_NAMES = ("play", "review", "replay", "solve", "arena", "bench", "spec", "serve", "loadtest")


def test_every_commands_help_loads_no_engine_player_or_server_module() -> None:
    code = "import typer\nfrom rules.cli import app\ntyper.main.get_command(app)"
    modules = loaded_after(code)
    assert "rules.cli.play" in modules and "rules.cli.solve" in modules  # every command's options are known
    assert [name for name in modules if name.startswith((*HEAVY, "starlette", "uvicorn", "transitions"))] == []


# --- at a real terminal ---------------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x01\x02]")
_CARD = re.compile(r"(?:10|[6-9JQKA])[♠♥♦♣]")


def test_at_a_terminal_a_duel_shows_the_tracker_and_a_valued_hint() -> None:
    """Through a pseudo-terminal: the trump hint, the opponent's cards on the table, a hint with its value."""
    import pty
    import select
    import time

    master, slave = pty.openpty()
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--no-save", "--level", "easy"]
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="50")
    with subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env) as process:
        os.close(slave)
        screen = ""

        def until(pattern: str, seconds: float = 60) -> str:
            nonlocal screen
            deadline = time.monotonic() + seconds
            start = len(screen)
            while not re.search(pattern, screen[start:]):
                ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
                assert ready, screen[-600:]
                screen += _ANSI.sub("", os.read(master, 65536).decode(errors="replace"))
            return screen[start:]

        def type_line(text: str) -> None:
            os.write(master, text.encode() + b"\r")

        try:
            offered = until(r"your trump> ")
            type_line("hint")
            assert "or any other free suit: they are worth the same" in until(r"your trump> ")
            type_line(re.findall(r"\((\w)\)", offered.rsplit("Choose your trump", 1)[1])[0])
            table = until(r"your move> ")
            north = re.search(r"North\s+trump \S\s+(\d+) cards\s+holds(.*?)Pile", table, re.S)
            assert north is not None, table
            assert len(_CARD.findall(north.group(2))) == int(north.group(1))  # every card North holds, worked out
            assert re.search(r"Move \d+ · cards: You \d+, North \d+, pile \d+", table)
            type_line("h")
            hint = until(r"your move> ", 120)
            assert re.search(r"hint: .+ (wins\.|draws; nothing wins\.|you are lost whatever you do\.|about \d+%)", hint)
            type_line("q")
            until(r"Hand 1 stopped")
            process.wait(timeout=30)
        finally:
            os.close(master)
            if process.poll() is None:
                process.kill()


def test_review_at_a_terminal_steps_forward_back_and_to_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.cli import review

    game = read_log(WON_LOG + '{"type": "beat", "seat": 1, "card": "KH"}\n')
    typed = iter(["", "b", "2", "l", "", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(typed))
    output = io.StringIO()
    review._step_through(Console(file=output, width=100, no_color=True), review.told(game), "ADDRESS")
    screen = output.getvalue()
    shown = re.findall(r"Event (\d) of 2", screen)
    assert shown == ["1", "2", "1", "2", "2", "2"]  # start, Enter, b, 2, l (the link), Enter at the end
    assert "ADDRESS" in screen and "That was the last event; q to stop." in screen
    assert "South  ♠  A♠  7♦" in screen  # every hand face up, each trump beside it


def test_solve_shows_its_search_on_standard_error_at_a_terminal(tmp_path: Path) -> None:
    import pty

    game = Game.from_position(WON)
    deal = tmp_path / "deal.jsonl"
    fresh = Game(game.rules, seed=1)
    while fresh.phase == "trump_choice":
        fresh.push(fresh.legal_moves()[0])
    fresh.push(fresh.sample_deal())
    deal.write_text("".join(line + "\n" for line in log_lines(fresh)), encoding="utf-8")
    master, slave = pty.openpty()
    command = [sys.executable, "-c", "from rules.cli import main; main()", "solve", str(deal), "--seconds", "1"]
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100")
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=slave, env=env, timeout=120, check=False)
    os.close(slave)
    seen = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(master, 65536):
            seen += chunk
    os.close(master)
    assert done.returncode == 0
    assert re.search(r"searching: \d+ s, [\d,]+ positions", _ANSI.sub("", seen.decode(errors="replace")))
    assert b"searching" not in done.stdout  # the answer alone on standard output
