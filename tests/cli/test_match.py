"""``trumps play`` as a match (rules §4): hands in a row, the dealer rule, the score, undo after the end,
the trump prompt, and stopping with Ctrl-D or Ctrl-C."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from rules.cli.session import Quit, Session, hand_log_path, play_match
from rules.events import ChooseTrump, Event
from rules.game import Game
from rules.log import read_log_file
from rules.match import Match
from rules.options import RuleSet
from rules.players import Player, make_player
from rules.state import Outcome, View

from .test_play import answer, answer_prompts, names_from_seat, play_through, read_until_prompt

PLAY = [sys.executable, "-c", "from rules.cli import main; main()", "play", "--level", "easy"]
ENV = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="100")


def moves_of(game: Game) -> int:
    return sum(1 for event in game.events if event.type in ("lead", "beat", "second", "take"))


def expected_dealer(dealer: int, outcome: Outcome) -> int:
    """Rules §4, written out here: the loser deals the next hand; after a draw the same dealer deals again."""
    return outcome.loser if outcome.result == "loss" and outcome.loser is not None else dealer


def test_a_match_of_three_hands_through_a_pipe(tmp_path: Path) -> None:
    """A real process plays a fixed match of 3 four-player hands; each hand has its log, and the score adds up."""
    log = tmp_path / "match.jsonl"
    command = [*PLAY, "--players", "4", "--seed", "0", "--hands", "3", "--save", str(log)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV) as process:
        transcript = play_through(process, between_hands=b"\n")
    assert process.returncode == 0
    paths = [log, tmp_path / "match-hand2.jsonl", tmp_path / "match-hand3.jsonl"]
    assert sorted(tmp_path.iterdir()) == sorted(paths)
    games = [read_log_file(path) for path in paths]
    names = names_from_seat(4, 0)
    dealer = 0
    for number, game in enumerate(games, start=1):
        assert game.rules.dealer == dealer, f"hand {number}"
        assert game.outcome is not None
        heading = f"Hand {number} of 3 · {names[dealer]} deal{'' if dealer == 0 else 's'}"
        assert heading in transcript
        dealer = expected_dealer(dealer, game.outcome)
    # The hands in the logs are the hands played: each hand's move count, in order, as the screen told it.
    told = [int(count) for count in re.findall(r"Moves played: (\d+)\.", transcript)]
    assert told == [moves_of(game) for game in games]
    lost = [sum(1 for game in games if game.outcome is not None and game.outcome.loser == seat) for seat in range(4)]
    assert sum(lost) == 3  # no draw with this seed
    score = ", ".join(f"{names[seat]} {lost[seat]}" for seat in range(4))
    assert f"Score after 3 hands, hands lost: {score}." in transcript
    assert "Match over" in transcript
    for seat in range(4):
        assert f"{names[seat]} lost {lost[seat]} hand{'' if lost[seat] == 1 else 's'}." in transcript
    assert transcript.count("next hand> ") == 2 and transcript.count("finish> ") == 1


def play_in_process(
    rules: RuleSet,
    seed: int,
    hands: int | None,
    log: Path,
    between: list[str],
    *,
    stop_in_hand: int | None = None,
    undo: bool = True,
) -> tuple[list[Game], str, Match, list[tuple[str, Game]]]:
    """A match in-process: ``between`` are typed at the prompts between hands (then the input ends), the other
    prompts are answered by reading the screen, until the input ends at the first prompt of hand ``stop_in_hand``.
    Returns the hands, the screen, the match and, at every prompt, the log saved on disk."""
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)
    seen = 0
    on_disk: list[tuple[str, Game]] = []

    def read_line(prompt: str) -> str | None:
        nonlocal seen
        console.print(prompt, end="")
        screen = output.getvalue()[seen:]
        seen = len(output.getvalue())
        number = len(re.findall(r"─ Hand \d+(?: of \d+)? · \w+ deals? ─", output.getvalue()))
        on_disk.append((prompt, read_log_file(hand_log_path(log, number))))
        if prompt in ("next hand> ", "finish> "):
            return between.pop(0) if between else None
        if number == stop_in_hand:
            return None
        return answer(screen + prompt)

    match = Match(rules, hands)
    bots = {seat: make_player("easy", seed * 10 + seat) for seat in range(rules.players) if seat != 0}
    games = play_match(match, 0, bots, console, read_line, seed=seed, log_path=log, undo=undo)
    return games, output.getvalue(), match, on_disk


def test_after_a_draw_the_same_dealer_deals_again(tmp_path: Path) -> None:
    rules = RuleSet(players=4, dealer=0)
    games, output, match, _ = play_in_process(rules, 17, None, tmp_path / "m.jsonl", ["n"], stop_in_hand=2)
    first = games[0].outcome
    assert first is not None and first.result == "draw"  # this seed's first hand is drawn
    assert games[1].rules.dealer == 0 == expected_dealer(0, first)
    assert "Score after 1 hand, hands lost: You 0, West 0, North 0, East 0; 1 draw. You deal the next hand." in output
    assert "── Hand 2 · You deal" in output
    # The input ended during hand 2: it is not counted, and its log holds what was played of it.
    assert match.results == [first]
    assert "End of input (Ctrl-D): the game stops here." in output
    assert read_log_file(tmp_path / "m-hand2.jsonl").events == games[1].events
    assert "Match stopped" in output and "Draws: 1." in output


def test_undo_after_the_end_of_a_hand_reopens_it(tmp_path: Path) -> None:
    """You lose a hand, take the last move back at the prompt after it, and play the hand out again."""
    log = tmp_path / "undo.jsonl"
    rules = RuleSet(players=2, dealer=0)
    games, output, match, on_disk = play_in_process(rules, 10, None, log, ["u", "q"])
    lost = output.index("You lost")
    assert output.index("Took back your last move", lost) > lost
    # At the prompt after the undo the log on disk shows the hand open again, with you to act.
    after_undo = next(i for i, (prompt, _) in enumerate(on_disk) if prompt == "next hand> ") + 1
    prompt, reopened = on_disk[after_undo]
    assert prompt == "your move> "
    assert not reopened.is_over() and reopened.to_act == 0
    first_end = on_disk[after_undo - 1][1]
    assert first_end.is_over() and len(reopened.events) < len(first_end.events)
    assert reopened.events == first_end.events[: len(reopened.events)]
    # The hand was played out again and counted once.
    assert len(games) == 1 and games[0].is_over()
    assert match.results == [games[0].outcome]
    assert output.count("Score after 1 hand") == 2
    assert read_log_file(log).events == games[0].events


def test_undo_after_the_end_when_you_had_gone_out_first(tmp_path: Path) -> None:
    """Out first, you watched the others finish; taking your last card back puts you in the hand again."""
    rules = RuleSet(players=3, dealer=0)
    games, output, match, _ = play_in_process(rules, 10, None, tmp_path / "out.jsonl", ["u", "q"])
    before, after = output.split("Took back your last move", 1)
    assert "You went out, 1st" in before  # this seed: you go out first, the others play on
    assert "The others play on to the end…" in before
    # Back at your last decision (a second card): it is told with the beat that came before it.
    replayed = after.split("your move> ", 1)[1]
    assert re.match(r"  You beat \S+ with \S+ and played \S+\.", replayed), replayed[:200]
    assert match.results == [games[0].outcome] and games[0].is_over()


def test_the_last_hand_of_a_fixed_match_can_be_taken_back_too(tmp_path: Path) -> None:
    rules = RuleSet(players=2, dealer=0)
    games, output, match, on_disk = play_in_process(rules, 10, 1, tmp_path / "one.jsonl", ["u", ""])
    assert [prompt for prompt, _ in on_disk].count("finish> ") == 2
    assert "Enter: finish · u: take back your last move\n" in output
    assert len(games) == 1 and match.over and match.results == [games[0].outcome]
    assert "next hand> " not in output and "Match over" not in output


class Recording:
    """A computer player that notes, at each of its moves, whether seat 0 (you) was already out."""

    def __init__(self, inner: Player, log: list[tuple[str, bool]], role: str) -> None:
        self.inner, self.log, self.role, self.name = inner, log, role, inner.name

    def choose(self, view: View) -> Event:
        self.log.append((self.role, view.hand_counts[0] == 0 and view.phase != "trump_choice"))
        return self.inner.choose(view)


def test_once_you_are_out_the_finishers_play_the_others_seats() -> None:
    game = Game(RuleSet(players=3, dealer=0), seed=10)  # this seed: you go out first
    moves: list[tuple[str, bool]] = []
    bots: dict[int, Player] = {seat: Recording(make_player("easy", 100 + seat), moves, "bot") for seat in (1, 2)}
    finishers: dict[int, Player] = {seat: Recording(make_player("medium", seat), moves, "finisher") for seat in (1, 2)}
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)

    seen = 0

    def read_line(prompt: str) -> str | None:
        nonlocal seen
        console.print(prompt, end="")
        screen, seen = output.getvalue()[seen:], len(output.getvalue())
        return answer(screen)

    Session(game, 0, bots, console, read_line, finishers=finishers).run()
    assert game.outcome is not None and game.outcome.out_order[0] == 0
    assert {role for role, you_out in moves if not you_out} == {"bot"}
    assert {role for role, you_out in moves if you_out} == {"finisher"}
    assert "The others play on to the end (quickly, by rules of thumb)…" in output.getvalue()


def test_undo_after_the_end_is_refused_without_undo(tmp_path: Path) -> None:
    """With ``--no-undo`` a one-hand match ends without a question; ``u`` between hands is refused."""
    rules = RuleSet(players=2, dealer=0)
    games, output, match, _ = play_in_process(rules, 10, 1, tmp_path / "a.jsonl", [], undo=False)
    assert games[0].is_over() and match.over
    assert "finish> " not in output and "Match over" not in output  # one hand: its own summary says it all
    games, output, match, _ = play_in_process(rules, 10, 2, tmp_path / "b.jsonl", ["u", "q"], undo=False)
    assert "undo is off in this game (--no-undo)" in output
    assert len(match.results) == 1 and len(games) == 1


def test_a_typo_between_hands_is_named_and_asked_again(tmp_path: Path) -> None:
    rules = RuleSet(players=2, dealer=0)
    games, output, match, _ = play_in_process(rules, 10, None, tmp_path / "t.jsonl", ["nxet", "hint", "q"])
    options = "Enter or n: next hand · u: take back your last move · q: stop"
    assert f"'nxet' is not an answer here; {options}\n" in output
    assert f"The hand is over; {options}\n" in output
    assert len(games) == 1 and len(match.results) == 1


@pytest.mark.parametrize("typed", ["s", "S", "spades", " Spades ", "SPADE", "♠", "♠️", "♤"])
def test_the_trump_can_be_typed_many_ways(typed: str) -> None:
    game = Game(RuleSet(players=2, dealer=1), seed=1)  # you (seat 0) choose first
    lines = iter([typed])
    output = io.StringIO()
    session = Session(game, 0, {1: make_player("easy", 1)}, Console(file=output), lambda prompt: next(lines, None))
    with pytest.raises(Quit):
        session.run()
    assert game.events[0] == ChooseTrump(seat=0, suit="S")
    assert "Choose your trump suit, blind (before the deal):\n  ♠ spades (s), ♥ hearts (h), ♦ diamonds (d)" in (
        output.getvalue()
    )


def test_a_suit_already_chosen_is_refused_with_its_owners_name() -> None:
    game = Game(RuleSet(players=3, dealer=1), seed=1)  # East (seat 2) chooses first, then you
    output = io.StringIO()
    typed: list[str] = []

    def read_line(prompt: str) -> str | None:
        if not typed:
            taken = game.trumps[2]
            assert taken is not None
            typed.append(taken.lower())
            return taken.lower()
        return None

    session = Session(game, 0, {1: make_player("easy", 1), 2: make_player("easy", 2)}, Console(file=output), read_line)
    with pytest.raises(Quit):
        session.run()
    words = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    taken = game.trumps[2]
    assert taken is not None
    free = [f"{words[suit]} ({suit.lower()})" for suit in "SHDC" if suit != taken]
    assert f"{words[taken]} are already East's trump: choose {free[0]}, {free[1]} or {free[2]}" in output.getvalue()
    assert [event.type for event in game.events] == ["choose_trump"]


def test_a_suit_the_rules_close_is_refused_though_nobody_owns_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The terminal offers what the game lists: with clubs nobody's trump (the game's open suits edited), typing c
    # is refused with the suits offered, not taken for another player's trump.
    open_suits = Game._open_suits
    monkeypatch.setattr(Game, "_open_suits", lambda game: [suit for suit in open_suits(game) if suit != 3])
    game = Game(RuleSet(players=2, dealer=1), seed=1)  # you choose first
    output = io.StringIO()
    lines = iter(["c"])
    session = Session(game, 0, {1: make_player("easy", 1)}, Console(file=output), lambda prompt: next(lines, None))
    with pytest.raises(Quit):
        session.run()
    assert "clubs cannot be chosen as a trump: choose spades (s), hearts (h) or diamonds (d)" in output.getvalue()
    assert game.events == []


def test_the_last_trump_left_is_taken_with_enter() -> None:
    game = Game(RuleSet(players=4, dealer=0), seed=1)  # West, North and East choose before you
    lines = iter([""])
    output = io.StringIO()
    bots = {seat: make_player("easy", seat) for seat in (1, 2, 3)}
    session = Session(game, 0, bots, Console(file=output, width=100), lambda prompt: next(lines, None))
    with pytest.raises(Quit):
        session.run()
    (last,) = {"S", "H", "D", "C"} - {event.suit for event in game.events[:3] if isinstance(event, ChooseTrump)}
    chosen = game.events[3]
    assert isinstance(chosen, ChooseTrump) and (chosen.seat, chosen.suit) == (0, last)
    assert ", the only one left: press Enter" in output.getvalue()


def test_an_empty_trump_choice_names_the_free_suits() -> None:
    game = Game(RuleSet(players=2, dealer=0), seed=1)  # North chooses first
    output = io.StringIO()
    lines = iter([""])
    console = Console(file=output, width=100)
    session = Session(game, 0, {1: make_player("easy", 1)}, console, lambda prompt: next(lines, None))
    with pytest.raises(Quit):
        session.run()
    taken = game.trumps[1]
    words = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    free = [f"{words[suit]} ({suit.lower()})" for suit in "SHDC" if suit != taken]
    assert f"type your trump suit: {free[0]}, {free[1]} or {free[2]}" in output.getvalue()
    assert len(game.events) == 1


def test_ctrl_c_mid_game_saves_and_exits_cleanly(tmp_path: Path) -> None:
    log = tmp_path / "interrupted.jsonl"
    command = [*PLAY, "--seed", "3", "--dealer", "1", "--save", str(log)]
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        # Ctrl-C at a terminal always reaches the game; a test run started in the background
        # (where the shell ignores SIGINT, and the children inherit that) must not change this.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as process:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        answer_prompts(process, 4)
        _, waiting = read_until_prompt(process.stdout)  # type: ignore[arg-type]
        assert waiting
        process.send_signal(signal.SIGINT)
        rest = process.stdout.read().decode()
        errors = process.stderr.read().decode()
    assert process.returncode == 0, errors
    assert "Traceback" not in errors
    assert "Interrupted (Ctrl-C): the game stops here." in rest
    assert f"Log saved to {log}" in rest
    game = read_log_file(log)
    assert not game.is_over() and moves_of(game) >= 4


def test_ctrl_d_mid_game_saves_and_exits_cleanly(tmp_path: Path) -> None:
    log = tmp_path / "eof.jsonl"
    command = [*PLAY, "--players", "3", "--seed", "3", "--save", str(log)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV
    ) as process:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        answer_prompts(process, 3)
        process.stdin.close()
        rest = process.stdout.read().decode()
        errors = process.stderr.read().decode()
    assert process.returncode == 0, errors
    assert errors == ""
    assert "End of input (Ctrl-D): the game stops here." in rest
    assert "Hand 1 stopped" in rest and f"Log saved to {log}" in rest
    game = read_log_file(log)
    assert not game.is_over() and moves_of(game) >= 2
    assert "Match" not in rest  # no hand finished: no match score to show


def test_the_match_keeps_score_and_the_dealer() -> None:
    match = Match(RuleSet(players=3, dealer=1), hands=4)
    loss = Outcome(result="loss", loser=2, out_order=[0, 1])
    draw = Outcome(result="draw", reason="tie_check", out_order=[0, 1])
    dealers = []
    for outcome in (loss, draw, Outcome(result="loss", loser=0, out_order=[1, 2]), loss):
        dealers.append(match.rule_set().dealer)
        match.record(outcome)
    assert dealers == [1, 2, 2, 0]
    assert match.hands_lost == [1, 0, 2] and match.draws == 1 and match.over
    with pytest.raises(ValueError, match="is over"):
        match.record(loss)
    assert match.take_back() == loss and not match.over and match.dealer == 0


def test_hand_logs_are_numbered_after_the_first() -> None:
    assert [hand_log_path(Path("d/game.jsonl"), n).as_posix() for n in (1, 2, 10)] == [
        "d/game.jsonl",
        "d/game-hand2.jsonl",
        "d/game-hand10.jsonl",
    ]


def test_a_fixed_match_stopped_before_its_last_hand_names_no_winner(tmp_path: Path) -> None:
    rules = RuleSet(players=2, dealer=0)
    _, output, match, _ = play_in_process(rules, 3, 3, tmp_path / "m.jsonl", ["n"], stop_in_hand=2)
    assert len(match.results) == 1 and not match.over
    assert "Match stopped" in output and "lost 1 hand." in output  # the score so far
    assert "fewest" not in output and "the match is yours" not in output  # but nobody has won 1 hand of 3
    # an open-ended match ends where the player stops it: its score is its result
    _, output, match, _ = play_in_process(rules, 3, None, tmp_path / "o.jsonl", ["n"], stop_in_hand=2)
    assert len(match.results) == 1 and "fewest" in output
