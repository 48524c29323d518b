"""``trumps play``: whole games through standard input, typos, undo, quitting, and what the table shows."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rules.cli import app, terminal
from rules.cli.session import InputError, Quit, Session, parse_card
from rules.events import Position, SeenPosition, Take
from rules.game import Game
from rules.log import read_log_file
from rules.options import RuleSet
from rules.players import make_player
from rules.state import Outcome

COMPASS = {2: ["You", "North"], 3: ["You", "West", "East"], 4: ["You", "West", "North", "East"]}


def answer(screen: str) -> str:
    """What a player who only reads the screen types: the first suit offered, the first card that beats, or take."""
    if screen.endswith("your trump> "):
        offered: list[str] = re.findall(r"\((\w)\)", screen.rsplit("Choose your trump", 1)[-1])
        return offered[0]
    assert screen.endswith("your move> "), screen[-300:]
    beat = re.search(r"Beat \S+ with \S+ \((\d+)\)", screen)
    if beat:
        return beat.group(1)
    if "Lead any card" in screen or "second card" in screen:
        return "1"
    assert "You cannot beat" in screen, screen[-300:]
    return "t"


def names_from_seat(players: int, you: int) -> list[str]:
    """The seat names a test expects, written out independently of the code under test."""
    return [COMPASS[players][(seat - you) % players] for seat in range(players)]


def result_words(outcome: Outcome, names: list[str]) -> str:
    if outcome.result == "draw":
        return "Draw"
    assert outcome.loser is not None
    return f"{names[outcome.loser]} lost"


PROMPTS = (b"your move> ", b"your trump> ", b"next hand> ", b"finish> ")


def read_until_prompt(stream: io.BufferedReader) -> tuple[str, bool]:
    """Everything the game prints up to its next prompt, and whether it is waiting at one (not exited)."""
    data = b""
    while not data.endswith(PROMPTS):
        byte = stream.read(1)
        if not byte:
            return data.decode("utf-8"), False
        data += byte
    return data.decode("utf-8"), True


def play_through(process: subprocess.Popen[bytes], between_hands: bytes) -> str:
    """Answer every prompt of a game process until it exits (``between_hands`` after a hand); its whole screen."""
    assert process.stdin is not None and process.stdout is not None
    transcript, waiting = "", True
    while waiting:
        screen, waiting = read_until_prompt(process.stdout)  # type: ignore[arg-type]
        transcript += screen
        if waiting:
            between = screen.endswith(("next hand> ", "finish> "))
            process.stdin.write(between_hands if between else answer(screen).encode() + b"\n")
            process.stdin.flush()
    return transcript


def answer_prompts(process: subprocess.Popen[bytes], count: int) -> None:
    """Answer the next ``count`` prompts of a game process, each with a legal move."""
    assert process.stdin is not None and process.stdout is not None
    for _ in range(count):
        screen, waiting = read_until_prompt(process.stdout)  # type: ignore[arg-type]
        assert waiting
        process.stdin.write(answer(screen).encode() + b"\n")
        process.stdin.flush()


def test_a_whole_duel_through_a_pipe(tmp_path: Path) -> None:
    """A real ``trumps play`` process, played to the end of a hand by reading its screen and writing to its stdin.

    Without ``--hands`` it asks after the hand whether to play another; ``q`` stops there.
    """
    log = tmp_path / "duel.jsonl"
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--seed", "11", "--save", str(log)]
    command += ["--level", "easy"]
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="100")
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env) as process:
        transcript = play_through(process, between_hands=b"q\n")
    assert process.returncode == 0
    game = read_log_file(log)
    assert game.is_over()
    assert game.outcome is not None
    assert "Hand 1 over" in transcript
    assert "Score after 1 hand, hands lost: " in transcript
    assert transcript.count("next hand> ") == 1
    assert result_words(game.outcome, names_from_seat(2, 0)) in transcript
    assert f"Log saved to {log}" in transcript
    moves = sum(1 for event in game.events if event.type in ("lead", "beat", "second", "take"))
    assert f"Moves played: {moves}." in transcript


def run_session(rules: RuleSet, you: int, script: list[str] | None = None, seed: int = 5) -> tuple[Session, str]:
    """Play in-process: the scripted lines first, then lines chosen by reading the screen; ``None`` ends input."""
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)
    pending = list(script) if script is not None else None
    seen = 0

    def read_line(prompt: str) -> str | None:
        nonlocal seen
        console.print(prompt, end="")
        screen = output.getvalue()[seen:]
        seen = len(output.getvalue())
        if pending is not None:
            return pending.pop(0) if pending else None
        return answer(screen)

    game = Game(rules, seed=seed)
    bots = {seat: make_player("easy", seed + seat) for seat in range(rules.players) if seat != you}
    session = Session(game, you, bots, console, read_line)
    with contextlib.suppress(Quit):  # raised at the end of a script
        session.run()
    session.summary()
    return session, output.getvalue()


@pytest.mark.parametrize(
    ("players", "you", "dealer", "must_beat", "pass_sixes", "seed"),
    [(3, 1, 0, False, True, 5), (4, 0, 2, True, False, 3), (2, 1, 1, True, True, 5)],
)
def test_whole_games_of_every_size_end_with_the_outcome_in_words(
    players: int, you: int, dealer: int, must_beat: bool, pass_sixes: bool, seed: int
) -> None:
    rules = RuleSet(players=players, dealer=dealer, must_beat=must_beat, pass_sixes=pass_sixes)
    session, output = run_session(rules, you, seed=seed)
    game = session.game
    assert game.outcome is not None
    assert result_words(game.outcome, names_from_seat(players, you)) in output
    replayed = Game.from_events(game.header, game.events)
    assert replayed.outcome == game.outcome
    out = game.outcome.out_order
    if you in out and out.index(you) < len(out) - 1:  # you went out while the others played on
        rest = output.split("You went out", 1)[1].split("Game over", 1)[0]
        assert "The others play on to the end" in rest
        assert " led " not in rest and " beat " not in rest


def test_typos_get_a_helpful_line_and_change_nothing() -> None:
    rules = RuleSet(players=2, dealer=1)  # you lead first
    session, output = run_session(rules, 0, ["x", "c", "KX", "99", "", "?"])
    assert "no such suit 'x': choose spades (s), hearts (h), diamonds (d) or clubs (c)" in output
    assert "no such card 'KX': a card is a rank 6-9, 10/T, J, Q, K, A and a suit S, H, D, C (or ♠ ♥ ♦ ♣)" in output
    assert "there is no card number 99: your cards are numbered 1 to " in output
    assert "Commands:" in output
    # Two trump choices and the deal, and not a single move.
    assert [event.type for event in session.game.events] == ["choose_trump", "choose_trump", "deal"]


def test_a_typo_in_the_trump_choice_offers_only_the_free_suits() -> None:
    rules = RuleSet(players=2, dealer=0)  # North chooses first
    session, output = run_session(rules, 0, ["1"])
    taken = session.game.trumps[1]
    assert taken is not None
    words = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    free = [f"{words[suit]} ({suit.lower()})" for suit in "SHDC" if suit != taken]
    assert f"no such suit '1': choose {free[0]}, {free[1]} or {free[2]}" in output


def test_a_mistyped_word_gets_a_suggestion() -> None:
    rules = RuleSet(players=2, dealer=1)  # you lead first
    session, output = run_session(rules, 0, ["spdaes", "s", "tkae", "hlep", "qiut"])
    assert "no such suit 'spdaes' (did you mean spades?): choose spades (s), hearts (h)" in output
    assert "'tkae': did you mean take (t)?" in output
    assert "'hlep': did you mean help (?)?" in output and "'qiut': did you mean quit (q)?" in output
    assert [event.type for event in session.game.events] == ["choose_trump", "choose_trump", "deal"]


def test_a_card_you_do_not_hold_is_refused() -> None:
    rules = RuleSet(players=2, dealer=0)  # North leads, you answer
    probe, _ = run_session(rules, 0, ["c"])
    missing = next(code for code in ("AS", "AH", "AD", "AC", "KS", "KH") if code not in probe.game.hand(0))
    session, output = run_session(rules, 0, ["c", missing])
    assert f"you do not hold {terminal.label(missing)}" in output
    assert session.game.events == probe.game.events


def test_an_illegal_card_shows_the_engines_refusal() -> None:
    rules = RuleSet(players=2, dealer=0)
    probe, _ = run_session(rules, 0, ["c"])
    top = probe.game.pile[-1]
    beaters = {getattr(event, "card", None) for event in probe.game.legal_moves()}
    loser = next(code for code in probe.game.hand(0) if code not in beaters)
    session, output = run_session(rules, 0, ["c", loser.lower()])
    assert f"not allowed: you cannot beat {terminal.label(top)} with {terminal.label(loser)}" in output
    assert session.game.pile == probe.game.pile


def test_undo_takes_back_your_move_and_the_computers_replies() -> None:
    rules = RuleSet(players=3, dealer=2)  # you (seat 0) choose first and lead first
    session, _ = run_session(rules, 0, ["s", "1"])
    after_move = len(session.game.events)
    session, output = run_session(rules, 0, ["s", "1", "u"])
    assert "Took back your last move" in output
    # Back to just before your lead: trumps chosen and the deal pushed, no card played.
    assert [event.type for event in session.game.events] == ["choose_trump"] * 3 + ["deal"]
    assert after_move > len(session.game.events)
    # The trump was chosen blind: once the cards are dealt, undo stops at the deal.
    session, output = run_session(rules, 0, ["s", "1", "u", "u"])
    assert [event.type for event in session.game.events] == ["choose_trump"] * 3 + ["deal"]
    assert "your trump choice cannot be taken back: you have seen your cards since" in output
    session, output = run_session(rules, 0, ["s", "u"])
    assert "cannot be taken back" in output and "Took back" not in output


runner = CliRunner()


def test_the_trump_choice_stays_blind_undo_cannot_reach_it_once_the_hand_is_seen() -> None:
    game = Game(RuleSet(players=2, dealer=1))  # no seed: every sample_deal() is a fresh shuffle
    lines = iter(["s", "u"])
    session = Session(game, 0, {1: make_player("easy", 1)}, Console(file=io.StringIO()), lambda _: next(lines, None))
    with pytest.raises(Quit):
        session.run()
    assert [event.type for event in game.events][:3] == ["choose_trump", "choose_trump", "deal"]
    assert session.undos == 0


def test_enter_takes_when_taking_is_the_only_move() -> None:
    position = Position(trumps=["S", "H"], hands=[["7C"], ["KH", "6D"]], pile=["AD"], to_act=0, phase="respond")
    game = Game.from_position(position)
    lines = iter([""])
    output = io.StringIO()
    session = Session(
        game, 0, {1: make_player("easy", 1)}, Console(file=output, width=100), lambda _: next(lines, None)
    )
    with pytest.raises(Quit):
        session.run()
    assert isinstance(game.events[1], Take) and game.events[1].seat == 0
    assert "or just press Enter" in output.getvalue()
    assert "trump ♠" in output.getvalue() and "trump ♥" in output.getvalue()


def test_quitting_mid_game_saves_a_replayable_log(tmp_path: Path) -> None:
    log = tmp_path / "stopped.jsonl"
    args = ["play", "--seed", "4", "--dealer", "1", "--level", "easy", "--save", str(log)]
    result = runner.invoke(app, args, input="d\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "You stopped the game." in result.output
    assert "Hand 1 stopped" in result.output
    game = read_log_file(log)
    assert not game.is_over()
    assert [event.type for event in game.events][:4] == ["choose_trump", "choose_trump", "deal", "lead"]


def test_the_end_of_input_stops_and_saves(tmp_path: Path) -> None:
    log = tmp_path / "eof.jsonl"
    args = ["play", "--players", "4", "--seed", "2", "--level", "easy", "--save", str(log)]
    result = runner.invoke(app, args, input="h\n")
    assert result.exit_code == 0, result.output
    assert "End of input (Ctrl-D): the game stops here." in result.output
    assert f"Log saved to {log}" in result.output
    assert read_log_file(log).rules.players == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "2"], "--seat 2 is not a seat of a 2-player game (seats 0-1)"),
        (["--players", "5"], "--players 5: a game has 2, 3 or 4 players"),
        (["--level", "godlike"], "--level godlike: choose one of easy, medium, hard, perfect"),
        (["--hands", "0"], "--hands 0: a match has at least 1 hand"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "--no-save", *args], input="")
    assert result.exit_code == 2
    assert result.stderr.strip() == message


@pytest.mark.parametrize(
    ("typed", "code"), [("TS", "TS"), ("ts", "TS"), ("10s", "TS"), ("10♠", "TS"), ("♠10", "TS"), (" ah ", "AH")]
)
def test_cards_can_be_typed_many_ways(typed: str, code: str) -> None:
    assert parse_card(typed, []) == code


@pytest.mark.parametrize("typed", ["KX", "1S", "11H", "AHH", "♠"])
def test_what_is_not_a_card_is_named(typed: str) -> None:
    with pytest.raises(InputError, match="no such card"):
        parse_card(typed, [])


def test_the_table_shows_others_only_as_counts_and_public_cards() -> None:
    rules = RuleSet(players=3, dealer=0)
    session, _ = run_session(rules, 1)
    game = session.game
    # Walk the finished game back and render the table at every one of your decisions.
    replay = Game(rules)
    for event in game.events[:200]:
        if replay.to_act == 1 and replay.phase in ("lead", "respond", "second"):
            view = replay.view(1)
            screen = Console(file=io.StringIO(), width=100, no_color=True)
            screen.print(terminal.table(view, session.names, "t", terminal.moves_text(view, session.names)))
            shown = set(re.findall(r"(?:10|[6-9JQKA])[♠♥♦♣]", screen.file.getvalue()))  # type: ignore[attr-defined]
            public = {terminal.label(code) for cards in (view.hand, view.pile, *view.known) for code in cards}
            assert shown <= public
        replay.push(event)


def test_an_unwritable_log_path_is_refused_before_the_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--save", str(tmp_path)], input="s\n")
    assert result.exit_code == 1
    assert result.stderr.strip() == f"cannot save the log to {tmp_path}: Is a directory"
    assert "your trump>" not in result.output


def test_the_log_is_saved_at_every_prompt(tmp_path: Path) -> None:
    """While the game waits for you, the log on disk already holds every decision so far."""
    log = tmp_path / "live.jsonl"
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--seed", "1", "--save", str(log)]
    command += ["--level", "easy"]
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env) as process:
        assert process.stdin is not None and process.stdout is not None
        for _ in range(3):
            screen, waiting = read_until_prompt(process.stdout)  # type: ignore[arg-type]
            assert waiting
            saved = read_log_file(log)
            process.stdin.write(answer(screen).encode() + b"\n")
            process.stdin.flush()
        process.kill()
    # At the third prompt: both trumps, the deal and at least the first two moves were on disk.
    assert [event.type for event in saved.events][:3] == ["choose_trump", "choose_trump", "deal"]
    assert len(saved.events) >= 5


def test_no_undo_means_no_undo() -> None:
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)
    lines = iter(["s", "1", "u"])
    game = Game(RuleSet(players=2, dealer=1), seed=3)
    session = Session(game, 0, {1: make_player("easy", 1)}, console, lambda prompt: next(lines, None), undo=False)
    with pytest.raises(Quit):
        session.run()
    assert "undo is off in this game (--no-undo)" in output.getvalue()
    assert "lead" in [event.type for event in game.events]


def test_at_a_real_terminal_erasing_what_you_typed_keeps_the_prompt() -> None:
    """Readline knows the prompt: backspace over a recalled line stops at it instead of clearing the whole line."""
    import pty
    import select
    import time

    master, slave = pty.openpty()
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--no-save", "--level", "easy"]
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="90", LINES="40")
    env.pop("NO_COLOR", None)
    with subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env) as process:
        os.close(slave)

        unread = b""  # what one read brought past the marker looked for (a refusal and the next prompt come together)

        def screen_until(marker: bytes) -> bytes:
            nonlocal unread
            seen, unread = unread, b""
            deadline = time.monotonic() + 60  # a loaded machine may take a while to start Python
            while marker not in seen:
                ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
                assert ready, seen.decode(errors="replace")[-300:]
                seen += os.read(master, 4096)
            end = seen.index(marker) + len(marker)
            seen, unread = seen[:end], seen[end:]
            return seen

        try:
            screen_until(b"your trump> ")
            os.write(master, b"xyz\r")
            screen_until(b"no such suit 'xyz'")
            screen_until(b"your trump> ")
            os.write(master, b"\x1b[A")  # the line typed before, from readline's history
            screen_until(b"xyz")
            os.write(master, b"\x7f\x7f\x7f\x7f!")  # one backspace more than there are characters
            erased = screen_until(b"!")
            os.write(master, b"\rq\r")
            screen_until(b"Hand 1 stopped")
            process.wait(timeout=20)
        finally:
            if process.poll() is None:  # a failed wait must not leave the game waiting for input for ever
                process.kill()
    os.close(master)
    assert erased.count(b"\x08\x1b[K") == 3
    assert b"\r" not in erased  # nothing went back to the start of the line, over the prompt


def test_at_a_real_terminal_the_cards_are_in_colour(tmp_path: Path) -> None:
    """Through a pseudo-terminal: the interactive path (line editing, colour), stopped with q."""
    import pty
    import select

    master, slave = pty.openpty()
    log = tmp_path / "tty.jsonl"
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--seed", "2", "--save", str(log)]
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="90", LINES="40")
    env.pop("NO_COLOR", None)
    with subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env) as process:
        os.close(slave)
        screen = b""
        sent = False
        while True:
            ready, _, _ = select.select([master], [], [], 20)
            assert ready, screen.decode(errors="replace")[-500:]
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed: the game has exited
                break
            if not chunk:
                break
            screen += chunk
            if not sent and b"your trump>" in screen:
                os.write(master, b"q\n")
                sent = True
        process.wait(timeout=20)
    os.close(master)
    text = screen.decode()
    assert process.returncode == 0
    assert "\x1b[31m♥ hearts" in text or "\x1b[31m♦ diamonds" in text  # red suits, in colour
    assert "Hand 1 stopped" in text
    # North (left of the dealer) had chosen; you stopped at your own choice.
    assert [(event.type, getattr(event, "seat", None)) for event in read_log_file(log).events] == [("choose_trump", 1)]


def test_a_hint_is_a_legal_move_and_changes_nothing() -> None:
    rules = RuleSet(players=2, dealer=0)  # North leads: you answer, with cards that beat or a take
    probe, _ = run_session(rules, 0, ["c"])
    session, output = run_session(rules, 0, ["c", "h"])
    assert session.game.events == probe.game.events
    said = re.search(r"hint: (?:take \(t\)|(\S+) \((\d+)\))", output)
    assert said is not None, output[-500:]
    legal = session.game.legal_moves()
    if said.group(1) is None:
        assert any(event.type == "take" for event in legal)
    else:
        card = session.game.hand(0)[int(said.group(2)) - 1]
        assert terminal.label(card) == said.group(1)
        assert card in {getattr(event, "card", None) for event in legal}


def test_the_hint_at_the_blind_trump_choice_says_any_free_suit_is_as_good_and_why() -> None:
    session, output = run_session(RuleSet(players=2, dealer=1), 0, ["hint"])
    assert "hint: ♠ spades (s), or any other free suit: they are worth the same." in output
    assert "every suit has the same nine cards" in output
    assert session.game.events == []


@pytest.mark.parametrize(
    ("outcome", "words"),
    [
        (Outcome(result="loss", loser=0, out_order=[1]), "You lost: you were left holding 2 cards."),
        (Outcome(result="loss", loser=2, out_order=[1, 0]), "East lost. You won, 2nd out."),
        (Outcome(result="draw", reason="tie_check", out_order=[1]), "Draw: the last card, Q♥, beats 9♥ on the pile."),
        (
            Outcome(result="draw", reason="repetition", out_order=[]),
            "Draw: the same position came up for the third time.",
        ),
    ],
)
def test_the_outcome_in_words(outcome: Outcome, words: str) -> None:
    names = names_from_seat(3, 0)
    last_hand = ["QH"] if outcome.result == "draw" else ["6S", "7S"]
    assert terminal.outcome_words(outcome, names, last_hand, "9H") == words


def test_an_output_without_suit_symbols_gets_question_marks_not_a_traceback() -> None:
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--no-save", "--seed", "1"]
    command += ["--level", "easy"]
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    result = subprocess.run(command, input=b"s\nq\n", capture_output=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr
    assert b"You chose ? spades as trump." in result.stdout


def test_the_perfect_computer_says_once_that_it_has_a_forced_win() -> None:
    # North leads its last card, 6♣; your 7♦ cannot beat it, so you are left holding cards and lose.
    position = Position(trumps=["S", "H"], hands=[["7D"], ["6C"]], pile=[], to_act=1, phase="lead")
    game = Game.from_position(position)
    output = io.StringIO()
    session = Session(game, 0, {1: make_player("perfect", 1)}, Console(file=output, width=100), lambda _: None)
    with contextlib.suppress(Quit):
        session.run()
    assert game.outcome is not None and game.outcome.loser == 0
    assert output.getvalue().count("I have a forced win.") == 1


@pytest.mark.parametrize(
    ("twice", "result"), [((), "loss"), (("6C",), "loss"), (("AH",), "loss"), (("6C", "AH"), "draw")]
)
def test_the_perfect_computer_knows_which_positions_have_come_up_twice(twice: tuple[str, ...], result: str) -> None:
    # North wins whichever card it leads: after 6♣ you can only take, and it goes out with A♥; after A♥ you take,
    # and it goes out with 6♣. But a lead into a position that has come up twice ends the hand as a draw (§3.3.3):
    # the computer, told the hand's history, leads the other card, and claims no win where both leads draw.
    earlier = [
        SeenPosition(
            hands=[["7D", "8D"], [card for card in ("6C", "AH") if card != lead]],
            pile=[lead],
            to_act=0,
            phase="respond",
            count=2,
        )
        for lead in twice
    ]
    position = Position(
        trumps=["S", "H"], hands=[["7D", "8D"], ["6C", "AH"]], pile=[], to_act=1, phase="lead", seen=earlier
    )
    game = Game.from_position(position)
    output = io.StringIO()
    session = Session(game, 0, {1: make_player("perfect", 1)}, Console(file=output, width=100), lambda _: "t")
    with contextlib.suppress(Quit):
        session.run()
    assert game.outcome is not None and game.outcome.result == result
    assert result == "draw" or game.outcome.loser == 0
    assert output.getvalue().count("I have a forced win.") == (result == "loss")
