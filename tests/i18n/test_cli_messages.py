"""The command line's messages in every language: solve, arena, bench, serve and loadtest, the bots' and the
server's refusals, typer's and click's usage errors; and what stays English (--json, replay's refusals).

The commands run in-process (a process per run would cost half a second each): the program is built as
``main()`` builds it, in the language given, and run with the given arguments. Each case runs in English
too; no English word of its output may appear in a translation, except names every language writes so.
A pseudo-locale (every letter accented) finds sentences written in the code instead of the catalogs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
import typer.core

import rules.locale
from rules.cli import app, speak_typer_words, translated
from rules.cli.loadtest import _report, _Tally
from rules.cli.usage import readable, run, said_by_typer
from rules.locale import LANGUAGES, N_, Message, number, said, use_language

from .test_cli_help import typer_words as typer_words  # the fixture, reused
from .test_terminal_languages import pseudo_locale as pseudo_locale  # the fixture, reused

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
ROOT = Path(__file__).resolve().parents[2]
POSITION = (
    '{"type": "start"}\n'
    '{"type": "position", "trumps": ["S", "H"], "hands": [["AS", "7D"], ["KH"]], '
    '"pile": ["9C", "JC"], "to_act": 1, "phase": "respond"}\n'
)
DEAL = ROOT / "spec" / "vectors" / "full_game_duel.jsonl"

# Names that every language writes as English does: the program and its commands, the bots, the settings
# and values typed as they are, technical names.
SAME_EVERYWHERE = {
    *("trumps", "play", "replay", "solve", "arena", "bench", "spec", "serve", "loadtest", "help"),
    *("random", "greedy", "mcts", "learned", "tuned", "nit", "perfect", "solver", "easy", "medium", "hard", "bot"),
    *("elo", "cpu", "postgresql", "sqlite", "websocket", "full", "normal", "sync", "synchronous", "rate", "burst"),
    "max",  # Czech and Romanian write "max." for the largest latency
}
# Words a language shares with English.
COGNATES = {
    "ro": {"program", "port", "argument"},
    "cs": {"program", "port", "argument", "duel"},
    "fi": set(),
    "ky": set(),
    "ru": set(),
}
_NOT_WORDS = re.compile(
    r"'[^']*'"  # what the user typed, quoted by the message: 'chess-engine', '--games'
    r"|\"[^\"]*\""
    r"|\S*(?:/|\.\w|_)\S*"  # paths, URLs, file names, addresses, code (Game.legal_moves, max_message_bytes)
    r"|--[\w-]+"  # option names
    r"|\b[A-Z][A-Z0-9]+\b"  # placeholders (LOG, NOISE) and card codes (KH)
)


def words(text: str) -> set[str]:
    """The words of ``text`` in plain Latin letters, three or more, lower case: what could be English."""
    text = _NOT_WORDS.sub(" ", text)
    return {word.lower() for word in re.findall(r"\w+", text) if len(word) >= 3 and re.fullmatch("[A-Za-z]+", word)}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("cli-messages")
    paths = {
        "position": POSITION,
        "three": '{"type": "start", "players": 3}\n',
        "over": POSITION + '{"type": "beat", "seat": 1, "card": "KH"}\n',
        "trumps": '{"type": "start"}\n{"type": "choose_trump", "seat": 1, "suit": "H"}\n',
        "deal": "".join(line + "\n" for line in DEAL.read_text().splitlines()[:4]),
        "garbage": "this is not a database",
    }
    for name, text in paths.items():
        (folder / name).write_text(text, encoding="utf-8")
    return {name: str(folder / name) for name in paths} | {"folder": str(folder)}


def cases(files: dict[str, str], port: int) -> dict[str, list[str]]:
    """Every message the bar asks for, with small arguments: name -> arguments. ``port`` is busy; a refusal of
    the database needs a free one (the port is checked first)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = str(probe.getsockname()[1])
    return {
        "solve exact": ["solve", files["position"]],
        "solve estimate": ["solve", files["deal"], "--seconds", "0.01", "--playouts", "1"],
        "solve no file": ["solve", files["folder"] + "/missing.jsonl"],
        "solve three players": ["solve", files["three"]],
        "solve over": ["solve", files["over"]],
        "solve before the deal": ["solve", files["trumps"]],
        "solve a move": ["solve", files["over"], "--move", "1"],
        "solve every move": ["solve", files["over"], "--all"],
        "solve no such move": ["solve", files["over"], "--move", "5"],
        "solve move and all": ["solve", files["over"], "--move", "1", "--all"],
        "review": ["review", files["over"]],
        "spec empty folder": ["spec", "--out", ""],
        "play empty log name": ["play", "--save", ""],
        "spec file for a folder": ["spec", "--out", files["garbage"]],
        "arena table": ["arena", "random", "greedy", "--games", "2", "--seed", "1"],
        "arena unknown bot": ["arena", "random", "chess-engine"],
        "arena one bot": ["arena", "random"],
        "arena twice": ["arena", "greedy", "greedy"],
        "arena not a number": ["arena", "random", "mcts:fast"],
        "arena iterations": ["arena", "random", "mcts:0it"],
        "arena negative": ["arena", "random", "perfect:-1"],
        "arena noise": ["arena", "random", "greedy:2"],
        "bench": ["bench", "--seconds", "0.01"],
        "serve busy port": ["serve", "--port", str(port), "--db", files["folder"] + "/t.sqlite3"],
        "serve no folder": ["serve", "--port", free, "--db", files["folder"] + "/missing/t.sqlite3"],
        "serve not a database": ["serve", "--port", free, "--db", files["garbage"]],
        "serve bad setting": ["serve", "--port", "1", "--sync", "sometimes"],
        "serve negative setting": ["serve", "--port", "1", "--rate", "-1"],
        "serve bad rules url": ["serve", "--port", "1", "--rules-url", "rules.example"],
        "serve rules url with a space": ["serve", "--port", "1", "--rules-url", "https://rules.example/full rules"],
        "serve invisible character": ["serve", "--port", "1", "--rules-url", "https://rules.example/\tx"],
        "serve not a whole number": ["serve", "--port", "1", "--burst", "1_000"],
        "serve not a number": ["serve", "--port", "1", "--rate", "1e3"],
        "serve too large": ["serve", "--port", "1", "--burst", "99999999999999999999"],
        "serve at least": ["serve", "--port", "1", "--max-tables", "0"],
        "serve more than 0": ["serve", "--port", "1", "--hello-timeout", "0"],
        "serve hard message bytes": ["serve", "--port", "1", "--max-message-bytes", "70000"],
        "serve memory database": ["serve", "--port", "1", "--db", ":memory:"],
        "serve database with a space": ["serve", "--port", "1", "--db", "t.sqlite3 "],
        "serve proxy name": ["serve", "--port", "1", "--trusted-proxies", "localhost"],
        "serve proxy host bits": ["serve", "--port", "1", "--trusted-proxies", "10.0.0.1/8"],
        "serve proxy star": ["serve", "--port", "1", "--trusted-proxies", "*,10.0.0.1"],
        "serve host": ["serve", "--host", "127.1"],
        "serve port sign": ["serve", "--port", "+80"],
        "serve unreachable postgres": ["serve", "--port", free, "--db", "postgresql://nobody:secret@127.0.0.1:1/x"],
        "loadtest several servers": ["loadtest", "--servers", "2"],
        "unknown option": ["arena", "random", "greedy", "--gam", "2"],
        "unknown command": ["no-such-command"],
        "missing argument": ["replay"],
        "not a whole number": ["arena", "random", "greedy", "--games", "x"],
        "out of range": ["bench", "--seconds", "0"],
        "too large": ["serve", "--port", "70000"],
        "needs a value": ["bench", "--seconds"],
        "takes no value": ["bench", "--json=1"],
        "extra argument": ["solve", "a", "b"],
    }


@pytest.fixture(scope="module")
def busy_port() -> Iterator[int]:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


def invoke(args: list[str]) -> tuple[int, str]:
    """``trumps ARGS`` in-process, built as ``main()`` builds it, in the language spoken now: the exit status and
    what it wrote (standard output, then standard error)."""
    command = typer.main.get_command(app)
    readable(command)
    translated(command)
    speak_typer_words()
    out, err = io.StringIO(), io.StringIO()
    code = 0
    saved = sys.argv
    sys.argv = ["trumps", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            run(command, "trumps")
    except SystemExit as done:
        code = int(done.code or 0)
    finally:
        sys.argv = saved
    return code, out.getvalue() + err.getvalue()


@pytest.fixture
def speaking(monkeypatch: pytest.MonkeyPatch, typer_words: None) -> Iterator[None]:
    """Typer's words and the language restored afterwards; wide enough that no sentence is wrapped; and no
    server started by a case that was meant to be refused."""
    import uvicorn

    def no_server(*args: object, **kwargs: object) -> None:
        raise AssertionError("trumps serve would have started a server")

    monkeypatch.setattr(uvicorn, "run", no_server)
    monkeypatch.setenv("COLUMNS", "200")
    yield
    use_language("en")


_ENGLISH: dict[str, tuple[int, str]] = {}


def in_english(name: str, args: list[str]) -> tuple[int, str]:
    """A case's English run (once for all the languages)."""
    if name not in _ENGLISH:
        use_language("en")
        _ENGLISH[name] = invoke(args)
    return _ENGLISH[name]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_speaks_the_language(lang: str, files: dict[str, str], busy_port: int, speaking: None) -> None:
    strays: dict[str, set[str]] = {}
    for name, args in cases(files, busy_port).items():
        code, english = in_english(name, args)
        assert english.strip(), name
        use_language(lang)
        translated_code, shown = invoke(args)
        assert translated_code == code, (name, shown)
        stray = words(english) & words(shown) - SAME_EVERYWHERE - COGNATES[lang]
        if stray:
            strays[name] = stray
    assert strays == {}, f"{lang}: English words of the English output: {strays}"


def test_the_pseudo_locale_leaves_no_english_message(
    files: dict[str, str], busy_port: int, pseudo_locale: None, speaking: None
) -> None:
    """Every sentence of every case comes from the catalogs: in the pseudo-locale, no plain word is left but the
    names typed by the user or written the same in every language."""
    typed = {"chess", "engine", "fast", "sometimes", "nobody", "secret", "trumps"}
    strays = {}
    for name, args in cases(files, busy_port).items():
        rules.locale._language = "en-XA"  # what the fixture set: invoke() must not reset it
        _code, shown = invoke(args)
        stray = words(shown) - SAME_EVERYWHERE - typed
        if stray:
            strays[name] = stray
    assert strays == {}, f"words written in the code, not taken from the catalogs: {strays}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_setting_from_the_environment_is_refused_in_the_language(
    lang: str, speaking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusals only a variable can bring: a setting with no option, and an option's own variable (typer's)."""
    for variable, value in (("TRUMPS_HARD_MESSAGE_BYTES", "1000"), ("TRUMPS_LOG_JSON", "maybe")):
        with monkeypatch.context() as patched:
            patched.setenv(variable, value)
            use_language("en")
            code, english = invoke(["serve", "--port", "1"])
            use_language(lang)
            translated_code, shown = invoke(["serve", "--port", "1"])
        assert code == translated_code == 2 and variable[len("TRUMPS_") :].lower() in shown.lower(), (english, shown)
        assert words(english) & words(shown) - SAME_EVERYWHERE - COGNATES[lang] == set(), shown


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_environment_chooses_the_language_of_a_usage_error(lang: str, speaking: None) -> None:
    """The real program, as a process: ``LANGUAGE`` chooses the language of typer's refusal too."""
    args = ["bench", "--seconds", "0"]
    environ = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    command = [sys.executable, "-c", "from rules.cli import main; main()", *args]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, env=environ | {"LANGUAGE": lang, "LANG": "C"}, check=False
    )
    use_language(lang)
    code, expected = invoke(args)
    assert (done.returncode, done.stdout, done.stderr) == (code, "", expected)
    assert "Input should" not in done.stderr and "(see trumps bench --help)" not in done.stderr


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_load_test_report_speaks_the_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    tally = _Tally(moves=975, hands=3, elapsed=1.0, lost=0)
    latency = {"p50": 1.9, "p95": 2.9, "p99": 5.5, "max": 8.0}
    reports = {}
    for spoken in ("en", lang):
        use_language(spoken)
        try:
            for think in (0.0, 0.5):
                _report(21, think, tally, 974.2, latency, latency)
        finally:
            use_language("en")
        reports[spoken] = capsys.readouterr().out
    assert words(reports["en"]) & words(reports[lang]) - SAME_EVERYWHERE - COGNATES[lang] == set()
    assert "p95 2.9 ms" in reports["en"] and "974.2" in reports["en"]
    assert "p95 2,9" in reports[lang] and "974,2" in reports[lang]  # every language here writes a decimal comma


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_arena_says_how_often_a_bot_played_exactly(lang: str) -> None:
    """The arena's line on a bot with a solver (the cases above have none: perfect would take minutes)."""
    from rules.cli.arena import exact_play_line
    from rules.players.arena import Moves

    lines, grouped = {}, {}
    for spoken in ("en", lang):
        use_language(spoken)
        try:
            lines[spoken] = [exact_play_line("perfect", Moves(moves, 143, 28)) for moves in (1, 3, 5, 21, 610, 1234)]
            grouped[spoken] = number(1234)
        finally:
            use_language("en")
    for english, shown in zip(lines["en"], lines[lang], strict=True):
        assert words(english) & words(shown) - SAME_EVERYWHERE - COGNATES[lang] == set(), shown
        assert shown.startswith("perfect: ") and "143" in shown and "171" in shown and "28" in shown
    assert lines["en"][4] == (
        "perfect: played exactly at 143 of 610 moves (solver asked at 171; 28 not settled within its budget)"
    )
    assert grouped[lang] != "1,234" and grouped[lang] in lines[lang][-1]  # digit groups as the language writes them


def test_the_arena_line_on_exact_play_comes_from_the_catalogs(pseudo_locale: None) -> None:
    from rules.cli.arena import exact_play_line
    from rules.players.arena import Moves

    assert words(exact_play_line("perfect", Moves(610, 143, 28))) - SAME_EVERYWHERE == set()


def test_json_and_replays_refusals_stay_english(files: dict[str, str], speaking: None) -> None:
    use_language("cs")
    code, shown = invoke(["arena", "random", "greedy", "--games", "2", "--seed", "1", "--json"])
    assert code == 0
    assert json.loads(shown)["elo_bounds"]["greedy"]["why"].startswith("greedy won all 2 games against random: ")
    code, shown = invoke(["solve", files["position"], "--json"])
    assert (code, json.loads(shown)["value"]) == (0, 1)
    code, shown = invoke(["bench", "--seconds", "0.01", "--json"])
    assert set(json.loads(shown)) == {"machine_plies_per_s", "search_plies_per_s", "lean_plies_per_s", "search_to_lean"}
    # trumps replay's refusals are the log format's (§L6): English in every language, as is its "cannot read".
    code, shown = invoke(["replay", files["folder"] + "/missing.jsonl"])
    assert (code, shown.startswith("cannot read ")) == (1, True), shown
    code, shown = invoke(["replay", files["three"]])
    assert code == 0 and "platný záznam" in shown  # its line for people is translated
    code, shown = invoke(["solve", files["garbage"]])
    assert (code, shown.startswith("line 1: ")) == (1, True), shown  # solve reads the log as replay does


@pytest.mark.parametrize(
    ("english", "czech"),
    [
        # click 8 itself (typer before 0.29) words some refusals its own way
        ("Invalid value for '--games': 'x' is not a valid integer.", "neplatná hodnota '--games': 'x' není celé číslo"),
        (
            "Invalid value for '--seconds': 0.0 is not in the range x>=0.01.",
            "neplatná hodnota '--seconds': 0.0 je mimo rozsah x>=0.01",
        ),
        ("No such option: --gam Did you mean --games?", "neznámá volba: --gam. Možná --games?"),
        # pydantic's bound is a number, written with the decimal comma
        (
            "Invalid value for '--seconds': Input should be greater than or equal to 0.01",
            "neplatná hodnota '--seconds': musí být aspoň 0,01",
        ),
        ("Got unexpected extra arguments (a b)", "nadbytečné argumenty (a b)"),
        # a sentence it does not know stays as typer says it
        ("Something new happened.", "Something new happened"),
    ],
)
def test_typer_and_click_sentences_are_recognised(english: str, czech: str) -> None:
    use_language("cs")
    try:
        assert said_by_typer(english) == czech
    finally:
        use_language("en")


def test_a_message_is_english_as_text_and_translated_when_said() -> None:
    inner = Message(N_("unable to open database file"))
    error = RuntimeError(Message(N_("cannot use the database {db}: {why}"), db="x.sqlite3", why=inner))
    assert str(error) == "cannot use the database x.sqlite3: unable to open database file"
    use_language("ru")
    try:
        assert said(error) == "не удаётся использовать базу данных x.sqlite3: не удаётся открыть файл базы данных"
        assert said(ValueError("plain")) == "plain" and str(error).startswith("cannot use")
    finally:
        use_language("en")


def test_lang_before_any_command_chooses_its_language() -> None:
    """``trumps --lang xx COMMAND``: the language of every command, whatever the environment says."""
    environ = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    program = [sys.executable, "-c", "from rules.cli import main; main()"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*program, *args], capture_output=True, text=True, timeout=60, env=environ | {"LANG": "ru_RU.UTF-8"}
        )

    czech = run("--lang", "cs", "bench", "--seconds", "0.02")
    assert czech.returncode == 0, czech.stderr
    assert "půltahů/s" in czech.stdout and "plies/s" not in czech.stdout
    assert re.search(r"\d\u00a0\d{3} půltahů/s", czech.stdout) and re.search(r"\d,\d\d$", czech.stdout), czech.stdout
    refused = run("--lang", "xx", "bench")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == "--lang xx: выберите один из: en, ro, fi, cs, ky, ru\n"  # in the environment's language


def test_the_language_of_the_help_and_the_errors_is_the_one_the_command_will_speak() -> None:
    """``play``'s own ``--lang`` speaks over ``trumps --lang`` in its help and errors too, as in the game; a ``--lang``
    the command does not take is refused in the language it would have spoken otherwise."""
    environ = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    program = [sys.executable, "-c", "from rules.cli import main; main()"]

    def stderr(*args: str) -> str:
        done = subprocess.run([*program, *args], capture_output=True, text=True, timeout=60, env=environ)
        assert done.returncode == 2, done
        return done.stderr

    assert stderr("--lang", "ru", "play", "--lang", "cs", "--bogus").startswith("trumps play: neznámá volba: --bogus")
    assert stderr("--lang", "ru", "play", "--lang", "cs", "--players", "9") == "--players 9: hrají 2, 3 nebo 4 hráči\n"
    environ["LANG"] = "cs_CZ.UTF-8"
    assert stderr("replay", "--lang", "ru", "x").startswith("trumps replay: neznámá volba: --lang")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_arenas_win_rates_stay_whole_at_80_columns(
    lang: str, speaking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A number and its % are joined by a no-break space, which rich takes for a place to break the line.
    monkeypatch.setenv("COLUMNS", "80")
    use_language(lang)
    code, shown = invoke(["arena", "random", "greedy", "--games", "2", "--seed", "0"])
    assert code == 0, shown
    row = next(line for line in shown.splitlines() if line.startswith("│ random │ greedy"))
    assert f"{number(0, 1)}" in row and f"{number(65.8, 1)}" in row and "%)" in row, shown
