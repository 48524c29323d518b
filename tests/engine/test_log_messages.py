"""The reason of a refused log line says what is wrong in the words of the log format, not of Python.

The line number that starts a refusal is the log's (log format §L6.2); the reason must not
contradict it with a line of its own (Python's JSON parser counts the one line it was given as
"line 1"), and it names JSON's kinds of value (an array, a string, null), not Python's types
(list, str, NoneType) or classes (RuleOptions).
"""

from __future__ import annotations

import pytest

from rules.log import LogError, read_log

HEADER = '{"type": "start"}\n'
DEALT = HEADER + '{"type": "choose_trump", "seat": 1, "suit": "H"}\n{"type": "choose_trump", "seat": 0, "suit": "S"}\n'


def refusal(log: str | bytes) -> str:
    with pytest.raises(LogError) as refused:
        read_log(log)
    message = str(refused.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"type": "lead",', "line 2: malformed JSON: Expecting property name enclosed in double quotes at column 17"),
        ("{not json", "line 2: malformed JSON: Expecting property name enclosed in double quotes at column 2"),
        ('{"type": "start"} x', "line 2: malformed JSON: Extra data at column 19"),
        ('{"type": "lead", "card": "A\rS"}', "line 2: malformed JSON: Invalid control character at column 28"),
        ('{"type": "lead", "card": "AS}', "line 2: malformed JSON: Unterminated string starting at column 26"),
        # the column counts characters, as an editor does, not bytes
        ('{"note": "ж", x}', "line 2: malformed JSON: Expecting property name enclosed in double quotes at column 15"),
    ],
)
def test_malformed_json_is_placed_by_its_column_not_by_a_second_line_number(line: str, reason: str) -> None:
    assert refusal(HEADER + line + "\n") == reason


@pytest.mark.parametrize("log", [HEADER + "\ufeff{}\n", " \ufeff" + HEADER])
def test_a_byte_order_mark_out_of_place_is_named_with_the_clause_not_a_python_codec(log: str) -> None:
    message = refusal(log)
    assert "byte order mark (U+FEFF) at column" in message
    assert "only the very start of the file may hold one" in message
    assert "utf-8-sig" not in message


@pytest.mark.parametrize(
    ("line", "kind"),
    [("[1, 2]", "an array"), ('"start"', "a string"), ("null", "null"), ("7", "a number"), ("1.5", "a number")]
    + [("true", "a boolean")],
)
def test_a_line_that_is_not_an_object_names_the_json_kind_it_is(line: str, kind: str) -> None:
    assert refusal(HEADER + line + "\n") == f"line 2: expected a JSON object, got {kind}"


def test_a_byte_that_is_not_utf8_is_placed_counting_from_1_like_an_editor() -> None:
    line = b'{"type": "start", "note": "\xff"}'
    assert line.index(b"\xff") == 27  # the 28th byte
    assert refusal(line + b"\n") == "line 1: not UTF-8 text at byte 28 of the line (0xFF: invalid start byte)"


@pytest.mark.parametrize("number", ["2", "9223372036854775808", "-99999999999999999999", "1" + "0" * 30])
def test_a_format_of_any_other_integer_is_another_format_however_long(number: str) -> None:
    # an integer beyond 64 bits is no "input string" that pydantic could not parse: it is just not 1
    reason = "line 1: invalid start event: format: Input should be 1"
    assert refusal('{"type": "start", "format": ' + number + "}") == reason


@pytest.mark.parametrize(
    ("log", "reason"),
    [
        ('{"type": "start", "rules": null}', "line 1: invalid start event: rules: Input should be an object"),
        ('{"type": "start", "rules": [true]}', "line 1: invalid start event: rules: Input should be an object"),
        (DEALT + '{"type": "deal", "hands": "all"}', "line 4: invalid deal event: hands: Input should be an array"),
        (DEALT + '{"type": "deal", "hands": {}}', "line 4: invalid deal event: hands: Input should be an array"),
        (
            HEADER + '{"type": "position", "trumps": ["S", "H"], "hands": [["AS"], ["KH"]], "pile": [], "to_act": 0,'
            ' "phase": "lead", "seen": [null]}',
            "line 2: invalid position event: seen.0: Input should be an object",
        ),
    ],
)
def test_a_mistyped_object_or_array_is_named_in_json_words(log: str, reason: str) -> None:
    message = refusal(log + "\n")
    assert message == reason
    assert "dictionary" not in message and "instance of" not in message


def test_a_lone_surrogate_in_a_card_is_named_as_such() -> None:
    message = refusal(DEALT + '{"type": "lead", "seat": 1, "card": "\\ud800S"}\n')
    assert message == (
        "line 4: invalid lead event: card: '\\ud800S' holds a lone surrogate, which is no Unicode character"
    )


def test_a_deal_of_one_card_says_one_card() -> None:
    message = refusal(DEALT + '{"type": "deal", "hands": [["6S"], ["7S"]]}\n')
    assert message == "line 4: the deal gives seat 0 1 card, not 18"


@pytest.mark.parametrize(
    ("log", "reason"),
    [
        (
            HEADER + '{"type": "choose_trump", "seat": 5, "suit": "H"}',
            "invalid choose_trump event: seat: 5 is not a seat",
        ),
        (HEADER + '{"type": "resign", "seat": -1}', "invalid resign event: seat: -1 is not a seat"),
        ('{"type": "start", "dealer": 4}', "invalid start event: dealer: 4 is not a seat"),
        (
            HEADER + '{"type": "position", "trumps": ["S", "H"], "hands": [["AS"], ["KH"]], "pile": [], "to_act": 0,'
            ' "phase": "lead", "out_order": [7]}',
            "invalid position event: out_order.0: 7 is not a seat",
        ),
    ],
)
def test_a_seat_out_of_every_game_is_called_no_seat_not_more_than_3(log: str, reason: str) -> None:
    # "Input should be less than or equal to 3" would mislead in a duel, whose seats are 0 and 1
    message = refusal(log + "\n")
    assert reason in message and "seats are numbered 0 to players-1" in message
    assert "equal to" not in message


@pytest.mark.parametrize(
    ("log", "reason"),
    [
        (
            HEADER + '{"type": "position", "trumps": ["S"], "hands": [["AS"], ["KH"]], "pile": [], "to_act": 0,'
            ' "phase": "lead"}',
            "line 2: the position has 1 trump and 2 hands, but the game has 2 players",
        ),
        (DEALT + '{"type": "deal", "hands": [["6S"]]}', "line 4: the deal has 1 hand for 2 players"),
    ],
)
def test_one_of_a_thing_is_not_said_in_the_plural(log: str, reason: str) -> None:
    assert refusal(log + "\n") == reason


def test_an_entry_of_seen_is_named_by_the_same_path_whoever_refuses_it() -> None:
    # pydantic places a mistyped field as seen.1.count; the rules' own checks of an entry say seen.1 too
    position = (
        '{"type": "position", "trumps": ["S", "H"], "hands": [["AS"], ["KH"]], "pile": [], "to_act": 0,'
        ' "phase": "lead", "seen": [FIRST, SECOND]}'
    )
    mistyped = '{"hands": [["AS"], ["KH"]], "pile": [], "to_act": 0, "phase": "respond", "count": "x"}'
    twice = '{"hands": [["AS"], ["KH"]], "pile": [], "to_act": 1, "phase": "lead", "count": 1}'
    position = position.replace("FIRST", twice)
    assert refusal(HEADER + position.replace("SECOND", mistyped) + "\n").endswith(
        "seen.1.count: Input should be a valid integer"
    )
    assert refusal(HEADER + position.replace("SECOND", twice) + "\n") == (
        "line 2: seen.1: the same position as an earlier one"
    )
