"""``trumps replay`` on bad and good logs, as a real subprocess (log format §L6).

A bad log must give exit status 1, an empty standard output and exactly one line on
standard error, ``line N: why``, with the 1-based number of the first bad line and no
traceback. A good log gives exit status 0 and, with ``--json``, one JSON object with
exactly the keys of the contract. All the subprocesses are started together, once, by a
module fixture, so the many cases cost little more than the slowest one.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from engine_kit import deal_line, header, move_line, position_line, trumps_command
from pydantic import ValidationError

from rules.cards import Card
from rules.game import Game, Snapshot
from rules.log import LogError, read_log, read_log_stream, stream_lines

SPADES = [rank + "S" for rank in "6789TJQKA"]
HEARTS = [rank + "H" for rank in "6789TJQKA"]
DIAMONDS = [rank + "D" for rank in "6789TJQKA"]
CLUBS = [rank + "C" for rank in "6789TJQKA"]
DUEL_DEAL = [SPADES + HEARTS, DIAMONDS + CLUBS]

# A duel dealt by seat 0: seat 1 chooses hearts, seat 0 spades. After the deal 6H passes
# to seat 1, so seat 0 holds the spades and the hearts 7-A, seat 1 diamonds, clubs and 6H.
DEALT = [header(), move_line("choose 1 H"), move_line("choose 0 S"), deal_line(DUEL_DEAL)]
# The circle of eight moves of test_clauses.py that returns to its start.
CIRCLE = ["take 0", "lead 1 6H", "beat 0 TH", "second 0 KH", "take 1", "lead 0 8C", "beat 1 TH", "second 1 KH"]
# A duel position where seat 0 leads its last card: the game ends on line 3.
ENDED = [header(), position_line("SH", [["7D"], ["8D"]], [], 0, "lead"), move_line("lead 0 7D")]


def text(*lines: str) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def position(**changes: object) -> str:
    """A valid position line (trumps S H, a respond position), with some fields changed."""
    data: dict[str, object] = {
        "type": "position",
        "trumps": ["S", "H"],
        "hands": [["AS", "7D"], ["KH"]],
        "pile": ["9C", "JC"],
        "to_act": 1,
        "phase": "respond",
    }
    data.update(changes)
    return json.dumps(data)


@dataclass(frozen=True)
class Bad:
    """A bad log, the line the error must name, and words the reason must contain."""

    name: str
    data: bytes
    line: int
    words: tuple[str, ...] = ()
    stdin: bool = False


BAD = [
    # --- not a well-formed event
    Bad("malformed_json", text(header(), '{"type": "choose_trump", "seat": 1,'), 2, ("JSON",)),
    Bad("not_an_object", text(header(), "[1, 2]"), 2),
    Bad("unknown_event_type", text(header(), '{"type": "pass", "seat": 1}'), 2, ("pass",)),
    Bad("missing_type", text(header(), '{"seat": 1, "suit": "H"}'), 2, ("type",)),
    # a type that is there but no string is named as it is, not as a missing field
    Bad("type_null", text(header(), '{"type": null, "seat": 1, "suit": "H"}'), 2, ("type", "null")),
    Bad("type_a_number", text(header(), '{"type": 1, "seat": 1, "suit": "H"}'), 2, ("type", "number")),
    Bad("missing_field", text(header(), '{"type": "choose_trump", "seat": 1}'), 2, ("suit",)),
    Bad("seat_as_string", text(header(), '{"type": "choose_trump", "seat": "1", "suit": "H"}'), 2, ("seat",)),
    Bad("seat_null", text(header(), '{"type": "choose_trump", "seat": null, "suit": "H"}'), 2, ("seat",)),
    Bad("seat_as_float", text(header(), '{"type": "choose_trump", "seat": 1.0, "suit": "H"}'), 2, ("seat",)),
    # an integer longer than Python converts (log format §L1.8) is an integer all the same: out of range, not mistyped
    Bad(
        "seat_of_5000_digits",
        text(header(), '{"type": "choose_trump", "seat": ' + "1" * 5000 + ', "suit": "H"}'),
        2,
        ("seat", "out of range", "5000 digits"),
    ),
    Bad("bool_as_int", text('{"type": "start", "rules": {"must_beat": 1}}'), 1, ("must_beat",)),
    Bad("bool_as_string", text('{"type": "start", "rules": {"pass_sixes": "true"}}'), 1, ("pass_sixes",)),
    Bad("invalid_suit", text(header(), '{"type": "choose_trump", "seat": 1, "suit": "X"}'), 2, ("suit",)),
    Bad("invalid_card_code", text(*DEALT, '{"type": "lead", "seat": 1, "card": "1D"}'), 5, ("1D",)),
    Bad("card_code_ten_as_10", text(*DEALT, '{"type": "lead", "seat": 1, "card": "10D"}'), 5, ("10D",)),
    Bad("card_code_lowercase", text(*DEALT, '{"type": "lead", "seat": 1, "card": "td"}'), 5, ("td",)),
    Bad("too_many_players", text('{"type": "start", "players": 5}'), 1, ("players",)),
    Bad("dealer_not_a_seat", text('{"type": "start", "players": 2, "dealer": 2}'), 1, ("dealer",)),
    Bad("unknown_format", text('{"type": "start", "format": 2}'), 1, ("format",)),
    Bad("seat_not_in_game", text(header(), move_line("choose 3 H")), 2, ("3",)),
    # --- the log's structure
    Bad("empty_file", b"", 1, ("empty",)),
    # a byte order mark is passed over before the lines are split (§L1.5): alone, it is an empty file
    Bad("only_a_byte_order_mark", b"\xef\xbb\xbf", 1, ("empty",)),
    Bad("byte_order_mark_and_blank_lines", b"\xef\xbb\xbf\n \r\n", 3, ("empty", "2 blank lines")),
    Bad("only_a_blank_line_without_its_end", b" ", 2, ("empty", "a blank line")),
    # a CR with no LF after it is part of its line (§L1.2): a lone one is a blank line, not nothing
    Bad("only_a_lone_cr", b"\r", 2, ("empty", "a blank line")),
    Bad("blank_line_then_a_lone_cr", b"\n\r", 3, ("empty", "2 blank lines")),
    Bad(
        "lone_cr_inside_a_string", text(header(), '{"type": "choose_trump", "seat": 1, "suit": "H", "note": "a\rb"}'), 2
    ),
    Bad("stdin_only_a_byte_order_mark", b"\xef\xbb\xbf", 1, ("empty",), stdin=True),
    Bad("first_line_not_a_header", text(move_line("choose 1 H")), 1, ("start",)),
    Bad("second_header", text(header(), move_line("choose 1 H"), header()), 3, ("start",)),
    Bad("position_after_choice", text(header(), move_line("choose 1 H"), position()), 3, ("position",)),
    Bad("position_after_position", text(header(), position(), position()), 3, ("position",)),
    Bad("position_after_deal", text(*DEALT, position()), 5, ("position",)),
    Bad("truncated_last_line", text(*DEALT)[:-1] + b'\n{"type": "lead", "se', 5, ("JSON",)),
    Bad("truncated_last_line_no_newline", text(*DEALT) + b'{"type": "lead", "seat": 1, "card": "6', 5),
    Bad("not_utf8", text(header()) + b'{"type": "choose_trump", "seat": 1, "suit": "\xff"}\n', 2, ("UTF-8",)),
    Bad("latin1_header", '{"type": "start", "note": "é"}\n'.encode("latin-1"), 1, ("UTF-8",)),
    Bad("blank_lines_are_counted", text(header(), "", "   ", move_line("choose 0 H")), 4, ("seat 0",)),
    Bad("first_bad_line_wins", text(header(), move_line("choose 0 H"), "nonsense"), 2),
    Bad("stdin_bad", text(*DEALT, move_line("lead 0 AS")), 5, ("seat 0",), stdin=True),
    Bad("stdin_empty", b"", 1, (), stdin=True),
    # --- the rules
    Bad("trump_out_of_turn", text(header(), move_line("choose 0 H")), 2, ("seat 0",)),
    Bad("trump_taken_twice", text(header(), move_line("choose 1 H"), move_line("choose 0 H")), 3, ("H",)),
    Bad(
        "play_before_the_deal",
        text(header(), move_line("choose 1 H"), move_line("choose 0 S"), move_line("lead 1 6D")),
        4,
    ),
    Bad("lead_out_of_turn", text(*DEALT, move_line("lead 0 AS")), 5, ("seat 0",)),
    Bad("card_not_in_hand", text(*DEALT, move_line("lead 1 AS")), 5, ("AS",)),
    Bad("passed_six_not_in_hand", text(*DEALT, move_line("lead 1 6D"), move_line("beat 0 6H")), 6, ("6H",)),
    Bad("beat_on_empty_pile", text(*DEALT, move_line("beat 1 6D")), 5),
    Bad("take_from_empty_pile", text(*DEALT, move_line("take 1")), 5),
    Bad("card_does_not_beat", text(*DEALT, move_line("lead 1 TD"), move_line("beat 0 7H")), 6, ("7H", "TD")),
    Bad(
        "lower_card_does_not_beat",
        text(header(), position(hands=[["AS", "7D"], ["KH", "8C"]]), move_line("beat 1 8C")),
        3,
        ("8C", "JC"),
    ),
    Bad("lead_instead_of_answer", text(*DEALT, move_line("lead 1 TD"), move_line("lead 0 AS")), 6),
    Bad(
        "must_beat_forbids_take",
        text(*[header(must_beat=True), *DEALT[1:]], move_line("lead 1 TD"), move_line("take 0")),
        6,
        ("seat 0",),
    ),
    Bad(
        "second_card_missing",
        text(*DEALT, move_line("lead 1 TD"), move_line("beat 0 AS"), move_line("beat 1 JD")),
        7,
    ),
    Bad(
        "take_count_mismatch",
        text(*DEALT, move_line("lead 1 TD"), move_line("take 0 3")),
        6,
        ("1",),
    ),
    Bad("event_after_end_take", text(*ENDED, move_line("take 1")), 4, ("over",)),
    Bad("event_after_end_lead", text(*ENDED, move_line("lead 1 8D")), 4, ("over",)),
    Bad("event_after_end_choice", text(*ENDED, move_line("choose 0 S")), 4, ("over",)),
    # --- deals that are not the pack
    Bad("deal_duplicate_card", text(*DEALT[:3], deal_line([SPADES + HEARTS[:-1] + ["6D"], DIAMONDS + CLUBS])), 4),
    Bad("deal_wrong_sizes", text(*DEALT[:3], deal_line([SPADES + HEARTS + ["6D"], DIAMONDS[1:] + CLUBS])), 4),
    Bad("deal_missing_card", text(*DEALT[:3], deal_line([SPADES + HEARTS, DIAMONDS + CLUBS[:-1]])), 4),
    Bad("deal_three_hands", text(*DEALT[:3], deal_line([SPADES + HEARTS, DIAMONDS, CLUBS])), 4),
    Bad("deal_one_hand", text(*DEALT[:3], deal_line([SPADES + HEARTS + DIAMONDS + CLUBS])), 4),
    Bad("deal_twice", text(*DEALT, deal_line(DUEL_DEAL)), 5),
    Bad("deal_invalid_card", text(*DEALT[:3], deal_line([[*SPADES, *HEARTS[:-1], "XH"], DIAMONDS + CLUBS])), 4),
    # --- inconsistent positions (log format §L4.3 lists when a position is refused)
    Bad("position_same_trumps", text(header(), position(trumps=["S", "S"])), 2, ("trump",)),
    Bad("position_invalid_trump", text(header(), position(trumps=["S", "X"])), 2, ("trumps",)),
    Bad("position_card_twice_in_hands", text(header(), position(hands=[["AS", "7D"], ["7D"]])), 2, ("7D",)),
    Bad("position_card_in_hand_and_pile", text(header(), position(hands=[["AS", "9C"], ["KH"]])), 2, ("9C",)),
    Bad("position_card_twice_in_pile", text(header(), position(pile=["9C", "9C"])), 2, ("9C",)),
    Bad("position_invalid_card", text(header(), position(pile=["9C", "1C"])), 2, ("1C",)),
    Bad("position_one_seat_with_cards", text(header(), position(hands=[["AS", "7D"], []], to_act=0)), 2),
    Bad("position_nobody_with_cards", text(header(), position(hands=[[], []], pile=[], phase="lead")), 2),
    Bad("position_to_act_without_cards", text(header(3), position(trumps=list("SHD"), hands=[["AS"], [], ["KH"]])), 2),
    Bad("position_to_act_not_a_seat", text(header(), position(to_act=2)), 2),
    Bad("position_empty_pile_respond", text(header(), position(pile=[])), 2, ("pile",)),
    Bad("position_empty_pile_second", text(header(), position(pile=[], phase="second")), 2, ("pile",)),
    Bad("position_pile_but_lead", text(header(), position(phase="lead")), 2, ("pile",)),
    Bad("position_unknown_phase", text(header(), position(phase="deal")), 2, ("phase",)),
    Bad("position_too_few_hands", text(header(3), position(trumps=list("SHD"))), 2),
    Bad("position_too_many_trumps", text(header(), position(trumps=list("SHD"))), 2),
    Bad("position_null_pile", text(header(), position(pile=None)), 2, ("pile",)),
    Bad("position_missing_pile", text(header(), position().replace(', "pile": ["9C", "JC"]', "")), 2, ("pile",)),
]

assert len({bad.name for bad in BAD}) == len(BAD)

# A subprocess costs a third of a second, so the command itself runs one case of each kind
# of fault (and the stdin cases); every case runs through the library's log reader, which
# the command only prints the error of.
THROUGH_THE_COMMAND = {
    "malformed_json",
    "unknown_event_type",
    "missing_field",
    "seat_as_string",
    "bool_as_int",
    "invalid_card_code",
    "empty_file",
    "only_a_byte_order_mark",
    "byte_order_mark_and_blank_lines",
    "only_a_lone_cr",
    "stdin_only_a_byte_order_mark",
    "first_line_not_a_header",
    "second_header",
    "position_after_choice",
    "truncated_last_line",
    "not_utf8",
    "blank_lines_are_counted",
    "stdin_bad",
    "stdin_empty",
    "lead_out_of_turn",
    "card_not_in_hand",
    "card_does_not_beat",
    "must_beat_forbids_take",
    "take_count_mismatch",
    "event_after_end_take",
    "deal_duplicate_card",
    "deal_three_hands",
    "position_same_trumps",
    "position_card_in_hand_and_pile",
    "position_empty_pile_respond",
    "position_to_act_without_cards",
    "position_one_seat_with_cards",
    "position_invalid_card",
}
COMMAND_CASES = [bad for bad in BAD if bad.name in THROUGH_THE_COMMAND]
assert len(COMMAND_CASES) == len(THROUGH_THE_COMMAND)


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def run(args: list[str], data: bytes | None = None) -> Run:
    completed = subprocess.run(
        [*trumps_command(), "replay", *args],
        input=data,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"},
        check=False,
    )
    return Run(completed.returncode, completed.stdout.decode(), completed.stderr.decode())


GOOD = {
    "header_only": text(header()),
    "header_with_defaults": text('{"type": "start"}'),
    "dealt": text(*DEALT),
    "in_play": text(*DEALT, move_line("lead 1 TD"), move_line("beat 0 AS"), move_line("second 0 7H")),
    "second_awaited": text(*DEALT, move_line("lead 1 TD"), move_line("beat 0 AS")),
    "after_a_take": text(*DEALT, move_line("lead 1 TD"), move_line("take 0 1")),
    "ended_by_loss": text(header(), position(), move_line("beat 1 KH")),
    "ended_by_tie_check": text(*ENDED),
    "ended_by_repetition": text(
        header(),
        position_line("SH", [["JH", "8H"], ["JS", "TD", "6H"]], ["8C", "TH", "KH"], 0, "respond"),
        *[move_line(move) for move in CIRCLE * 2],
    ),
    "three_players_position": text(header(3), position_line("SHD", [["AS"], [], ["KH", "7C"]], [], 2, "lead")),
    "blank_lines_and_crlf": b"\r\n" + text(*DEALT).replace(b"\n", b"\r\n") + b"\r\n\r\n",
    "extra_fields_ignored": text(
        '{"type": "start", "comment": "hi", "rules": {"x": 1}}',
        '{"type": "choose_trump", "seat": 1, "suit": "H", "at": 3}',
    ),
    "no_trailing_newline": text(*DEALT)[:-1],
    "lone_cr_at_the_end": text(*DEALT)[:-1] + b"\r",
    "lone_cr_between_tokens": text(*DEALT).replace(b", ", b",\r"),
    "byte_order_mark": b"\xef\xbb\xbf" + text(*DEALT),
}

STDIN_GOOD = "dealt"
PLAIN_GOOD = {"header_only", "dealt"}
# The good logs the command itself replays (the others only through the log reader).
COMMAND_GOOD = {
    "header_only",
    "dealt",
    "second_awaited",
    "ended_by_loss",
    "ended_by_tie_check",
    "ended_by_repetition",
    "three_players_position",
    "blank_lines_and_crlf",
    "byte_order_mark",
}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Every command case run at once, keyed by name (``NAME+plain`` without ``--json``)."""
    folder = tmp_path_factory.mktemp("logs")
    jobs: dict[str, tuple[list[str], bytes | None]] = {}
    for bad in COMMAND_CASES:
        path = folder / f"{bad.name}.jsonl"
        path.write_bytes(bad.data)
        jobs[bad.name] = (["-", "--json"], bad.data) if bad.stdin else ([str(path), "--json"], None)
    for name, data in GOOD.items():
        if name not in COMMAND_GOOD:
            continue
        path = folder / f"{name}.jsonl"
        path.write_bytes(data)
        jobs[name] = ([str(path), "--json"], None)
        if name in PLAIN_GOOD:
            jobs[name + "+plain"] = ([str(path)], None)
    jobs["stdin_good"] = (["-", "--json"], GOOD[STDIN_GOOD])
    jobs["missing_file"] = ([str(folder / "no such log.jsonl")], None)
    bad = next(bad for bad in BAD if bad.name == "card_does_not_beat")
    jobs["card_does_not_beat+plain"] = ([str(folder / f"{bad.name}.jsonl")], None)
    jobs["card_does_not_beat+stdin"] = (["-"], bad.data)
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = {name: pool.submit(run, args, data) for name, (args, data) in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


def assert_refused(result: Run, line: int, words: tuple[str, ...]) -> None:
    assert result.returncode == 1, result
    assert result.stdout == "", result
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    match = re.fullmatch(r"line (\d+): (.+)", lines[0])
    assert match is not None, lines[0]
    assert int(match.group(1)) == line, lines[0]
    for word in words:
        assert word in match.group(2), (word, lines[0])


@pytest.mark.parametrize("bad", COMMAND_CASES, ids=[bad.name for bad in COMMAND_CASES])
def test_a_bad_log_is_refused_with_one_line_naming_the_first_bad_line(bad: Bad, results: dict[str, Run]) -> None:
    assert_refused(results[bad.name], bad.line, bad.words)


def test_without_json_and_from_stdin_the_error_is_the_same(results: dict[str, Run]) -> None:
    bad = next(bad for bad in BAD if bad.name == "card_does_not_beat")
    for name in ("card_does_not_beat+plain", "card_does_not_beat+stdin"):
        assert_refused(results[name], bad.line, bad.words)
        assert results[name].stderr == results[bad.name].stderr


@pytest.mark.parametrize("bad", BAD, ids=[bad.name for bad in BAD])
def test_the_log_reader_refuses_the_first_bad_line_in_one_line(bad: Bad) -> None:
    with pytest.raises(LogError) as caught:
        read_log(bad.data)
    assert caught.value.line == bad.line, caught.value
    # the same refusal from the text, and from the file read a line at a time (trumps replay's way)
    with pytest.raises(LogError) as streamed:
        read_log_stream(io.BytesIO(bad.data))
    assert str(streamed.value) == str(caught.value)
    if b"\xff" not in bad.data and "latin" not in bad.name:
        with pytest.raises(LogError) as from_text:
            read_log(bad.data.decode("utf-8"))
        assert str(from_text.value) == str(caught.value)
    message = str(caught.value)
    assert message.startswith(f"line {bad.line}: ")
    assert "\n" not in message and message == message.strip()
    for word in bad.words:
        assert word in caught.value.reason, (word, message)


def test_a_missing_file_is_one_line_without_traceback(results: dict[str, Run]) -> None:
    result = results["missing_file"]
    assert result.returncode == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "no such log.jsonl" in result.stderr


CONTRACT_KEYS = {"phase", "to_act", "trumps", "hands", "pile", "outcome"}


def good_cases() -> Iterator[tuple[str, bytes]]:
    yield from ((name, data) for name, data in GOOD.items() if name in COMMAND_GOOD)
    yield "stdin_good", GOOD[STDIN_GOOD]


@pytest.mark.parametrize(("name", "data"), list(good_cases()), ids=[name for name, _ in good_cases()])
def test_a_good_log_exits_0_and_prints_the_contract_state(name: str, data: bytes, results: dict[str, Run]) -> None:
    if name in PLAIN_GOOD:
        plain = results[name + "+plain"]
        # Without --json: one line saying the log is valid and how the game stands.
        assert (plain.returncode, plain.stderr) == (0, "")
        assert len(plain.stdout.splitlines()) == 1 and ": a valid log of " in plain.stdout
    as_json = results[name]
    assert as_json.returncode == 0, as_json
    assert as_json.stderr == ""
    assert len(as_json.stdout.splitlines()) == 1
    assert_contract_state(json.loads(as_json.stdout), data)


@pytest.mark.parametrize(("name", "data"), list(GOOD.items()), ids=list(GOOD))
def test_the_log_reader_accepts_a_good_log(name: str, data: bytes) -> None:
    assert_contract_state(read_log(data).state().model_dump(mode="json"), data)


def assert_contract_state(state: dict[str, Any], data: bytes) -> None:
    assert set(state) == CONTRACT_KEYS
    assert state == read_log(data).state().model_dump(mode="json")
    assert state["phase"] in ("trump_choice", "deal", "lead", "respond", "second", "finished")
    if state["phase"] in ("deal", "finished"):
        assert state["to_act"] is None
    else:
        assert isinstance(state["to_act"], int)
    if state["outcome"] is not None:
        assert state["phase"] == "finished"
        assert state["outcome"]["result"] in ("loss", "draw")
        assert ("loser" in state["outcome"]) == (state["outcome"]["result"] == "loss")


def test_the_printed_states_say_what_the_contract_says(results: dict[str, Run]) -> None:
    def state(name: str) -> dict[str, object]:
        """What the command printed, or for a log it did not replay, what the reader gives."""
        if name in results:
            parsed: dict[str, object] = json.loads(results[name].stdout)
            return parsed
        return read_log(GOOD[name]).state().model_dump(mode="json")

    assert state("header_only") == {
        "phase": "trump_choice",
        "to_act": 1,
        "trumps": [None, None],
        "hands": [[], []],
        "pile": [],
        "outcome": None,
    }
    dealt = state("dealt")
    assert (dealt["phase"], dealt["to_act"], dealt["trumps"]) == ("lead", 1, ["S", "H"])
    assert dealt["hands"] == [SPADES + HEARTS[1:], ["6H", *DIAMONDS, *CLUBS]]
    assert state("in_play")["pile"] == ["TD", "AS", "7H"]
    assert (state("second_awaited")["phase"], state("second_awaited")["to_act"]) == ("second", 0)
    assert state("after_a_take")["pile"] == [] and state("after_a_take")["phase"] == "lead"
    assert state("ended_by_loss")["outcome"] == {"result": "loss", "loser": 0, "out_order": [1]}
    assert state("ended_by_tie_check")["outcome"] == {"result": "draw", "reason": "tie_check", "out_order": [0]}
    repetition = state("ended_by_repetition")["outcome"]
    assert isinstance(repetition, dict) and (repetition["result"], repetition["reason"]) == ("draw", "repetition")
    assert state("blank_lines_and_crlf") == dealt == state("no_trailing_newline") == state("stdin_good")
    assert state("lone_cr_at_the_end") == dealt == state("lone_cr_between_tokens")
    assert state("byte_order_mark") == dealt


def test_a_unicode_line_separator_inside_a_string_is_not_a_line_break() -> None:
    """JSON allows a raw U+2028 inside a string; only a newline ends a log line (text, bytes, CRLF)."""
    text = '{"type": "start", "note": "a\u2028b"}\n{"type": "choose_trump", "seat": 1, "suit": "H"}\n'
    assert read_log(text).trumps == [None, "H"]
    assert read_log(text.encode()).trumps == [None, "H"]
    assert read_log(text.replace("\n", "\r\n")).trumps == [None, "H"]


def test_only_the_cr_right_before_an_lf_goes_with_the_line_end() -> None:
    """Log format §L1.2: any other CR, one that is the last byte of the file included, stays in its line."""
    assert list(stream_lines(io.BytesIO(b"A\r\nB\rC\r\r\nD\r"))) == [b"A", b"B\rC\r", b"D\r"]
    assert list(stream_lines(io.BytesIO(b"\xef\xbb\xbf\r"))) == [b"\r"]


def test_a_text_is_split_and_decoded_as_its_bytes_would_be() -> None:
    """A text goes through the splitter of files; a lone surrogate, which no UTF-8 file holds, is not UTF-8."""
    with pytest.raises(LogError, match="not UTF-8") as caught:
        read_log('{"type": "start"}\n{"type": "start", "note": "\ud800"}')
    assert caught.value.line == 2


def test_the_reader_reads_nothing_after_the_first_bad_line() -> None:
    """Log format §L3.5 and §L6.5: the refusal comes as soon as the bad line is read, the rest is left unread."""
    bad = text(*DEALT, move_line("lead 0 AS"))
    file = io.BytesIO(bad + text(move_line("lead 1 6D")) * 1000)
    with pytest.raises(LogError) as caught:
        read_log_stream(file)
    assert caught.value.line == 5
    assert file.tell() == len(bad)


@pytest.mark.parametrize("command", ["replay", "review", "solve"])
def test_a_bad_line_is_refused_while_the_pipe_is_still_open(command: str) -> None:
    """A log written slowly into a pipe (tail -f) is refused when its bad line comes, not when the writer stops:
    by trumps replay (log format §L6.5), and by trumps review and trumps solve, which read it the same way (§L6.6)."""
    process = subprocess.Popen(
        [*trumps_command(), command, "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert process.stdin is not None
    try:
        process.stdin.write(text(*DEALT, move_line("lead 0 AS")) + b'{"type": "lead", "seat"')
        process.stdin.flush()  # and the pipe stays open, the last line unfinished
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() is not None, "replay waited for the end of the input"
        stdout, stderr = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdin.close()
    assert_refused(Run(process.returncode, stdout.decode(), stderr.decode()), 5, ("seat 0",))


def test_a_read_that_fails_part_way_is_a_read_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Log format §L6.3: once reading fails, the command says it cannot read the log, status 1, nothing printed."""
    from contextlib import contextmanager

    from typer.testing import CliRunner

    from rules.cli import app, usage

    class FailingFile(io.BytesIO):
        def __iter__(self) -> Iterator[bytes]:
            yield text(header())
            raise OSError(errno.EIO, "Input/output error")

    @contextmanager
    def failing(source: str) -> Iterator[FailingFile]:
        yield FailingFile()

    monkeypatch.setattr(usage, "open_input", failing)
    result = CliRunner().invoke(app, ["replay", "game.jsonl", "--json"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "cannot read game.jsonl: Input/output error\n"


@pytest.mark.parametrize("code", ["AS\n", "as", "10S", "AS ", " AS", "ASS", "", "A"])
def test_a_card_code_is_its_two_characters_and_nothing_else(code: str) -> None:
    # Rules §1.2: any other spelling is no card; a final line feed too (Python's $ would let it through).
    with pytest.raises(ValueError, match="invalid card"):
        Card.parse(code)
    assert str(Card.parse("AS")) == "AS"


@pytest.mark.parametrize("seed", ['"7"', "7.0", "true", "-7"])
def test_a_snapshot_is_read_back_strictly_and_its_seed_is_never_negative(seed: str) -> None:
    # Before, the snapshot's seed alone was read laxly: "7" and 7.0 became 7, true became 1, -7 dealt as 7.
    game = Game(seed=7)
    game.push(game.legal_moves()[0])
    written = game.snapshot().model_dump_json()
    assert Game.from_snapshot(Snapshot.model_validate_json(written)).events == game.events
    with pytest.raises(ValidationError) as refused:
        Snapshot.model_validate_json(written.replace('"seed":7', f'"seed":{seed}'))
    assert refused.value.errors()[0]["loc"] == ("seed",)


def test_a_game_refuses_a_negative_seed_rather_than_deal_another_seeds_deal() -> None:
    with pytest.raises(ValueError, match=r"seed -7 is negative: a seed is a non-negative integer \(deals §D1.1\)"):
        Game(seed=-7)
