"""The events of a game, as pydantic models: the lines of a replay log, and notifications.

Input events (log format §L3) carry only decisions and the chance outcome of the deal;
a log is a :class:`Start` header followed by them. Notifications report what the
rules did on their own, so that a user interface or a server never re-derives it.

>>> event = parse_event('{"type": "beat", "seat": 0, "card": "QD"}')
>>> event
Beat(type='beat', seat=0, card='QD')
>>> event_json(event)
'{"type":"beat","seat":0,"card":"QD"}'
>>> parse_event('{"type": "beat", "seat": 0, "card": "1D"}')
Traceback (most recent call last):
...
rules.events.EventError: invalid beat event: card: '1D' is not a card code (rank 6-9 T J Q K A, then suit S H D C)
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from rules.cards import CardCode
from rules.options import DEALER, MUST_BEAT, PASS_SIXES, PLAYERS, Dealer, Players, RuleSet, dealer_problem

SuitCode = Literal["S", "H", "D", "C"]
Seat = Annotated[int, Field(ge=0, le=3, description="A seat number, 0 to players-1.")]


def _json_integer(value: Any) -> Any:
    # A Literal compares by ==, and True == 1.0 == 1 in Python: the field must be a JSON integer (log format §L2.2).
    if type(value) is not int:
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


def _format_one(value: Any) -> Any:
    # A JSON integer (above), and then 1: pydantic's Literal would answer an integer beyond 64 bits with
    # "Unable to parse input string as an integer", as if the number had been a string.
    value = _json_integer(value)
    if value != 1:
        raise PydanticCustomError("literal_error", "Input should be 1")
    return value


class _Model(BaseModel):
    # Strict: a seat written as "1" or a flag written as 1 is a mistyped field, not a guess.
    # Unknown extra fields are ignored, as the log format asks of readers (§L2.5).
    # A schema of what a program sends (the online server's messages, mode "serialization") requires every
    # field, as a whole dump holds it, null or not; the log's schema (mode "validation") keeps defaults optional.
    model_config = ConfigDict(
        strict=True, extra="ignore", frozen=True, json_schema_serialization_defaults_required=True
    )


class RuleOptions(_Model):
    """The rule options of a log header; each defaults as in docs/rules.md."""

    pass_sixes: bool = PASS_SIXES
    must_beat: bool = MUST_BEAT


class Start(_Model):
    """The header, first line of every log."""

    type: Literal["start"] = "start"
    format: Annotated[Literal[1], BeforeValidator(_format_one)] = Field(
        default=1, description="The log format version."
    )
    players: Players = PLAYERS
    dealer: Dealer = DEALER
    rules: RuleOptions = RuleOptions()

    @model_validator(mode="after")
    def _dealer_is_a_seat(self) -> Start:
        # The same question and reason as RuleSet's: the rule options are validated once.
        problem = dealer_problem(self.players, self.dealer)
        if problem is not None:
            raise ValueError(problem)
        return self

    @classmethod
    def of(cls, rules: RuleSet) -> Start:
        return cls(
            players=rules.players,
            dealer=rules.dealer,
            rules=RuleOptions(pass_sixes=rules.pass_sixes, must_beat=rules.must_beat),
        )

    def rule_set(self) -> RuleSet:
        return RuleSet(
            players=self.players,
            dealer=self.dealer,
            pass_sixes=self.rules.pass_sixes,
            must_beat=self.rules.must_beat,
        )


class ChooseTrump(_Model):
    """A player chooses their trump suit (rules §2.1)."""

    type: Literal["choose_trump"] = "choose_trump"
    seat: Seat
    suit: SuitCode


class Deal(_Model):
    """The deal: every hand as dealt, before sixes pass (§2.2)."""

    type: Literal["deal"] = "deal"
    hands: list[list[CardCode]]


class SeenPosition(_Model):
    """A position of the repetition rule that arose earlier in the game, and how often (rules §3.3)."""

    hands: list[list[CardCode]] = Field(description="One list per seat, compared as sets.")
    pile: list[CardCode] = Field(description="Bottom to top.")
    to_act: Seat
    phase: Literal["lead", "respond"]
    count: int = Field(ge=1, le=2, description="How many times it arose: 1 or 2 (a third time is a draw).")


class Position(_Model):
    """A game started from an arbitrary position instead of the trump choice and the deal (log format §L4)."""

    type: Literal["position"] = "position"
    trumps: list[SuitCode]
    hands: list[list[CardCode]]
    pile: list[CardCode] = Field(description="Bottom to top.")
    to_act: Seat
    phase: Literal["lead", "respond", "second"]
    out_order: list[Seat] | None = Field(
        default=None,
        description="The seats that have gone out, in order: each empty hand once. Absent or null: the empty "
        "hands in increasing seat order.",
    )
    seen: list[SeenPosition] | None = Field(
        default=None,
        description="Positions that arose earlier in the game, for the repetition rule. Absent or null: none.",
    )


class Lead(_Model):
    """A card placed on the empty pile (§2.3)."""

    type: Literal["lead"] = "lead"
    seat: Seat
    card: CardCode


class Beat(_Model):
    """A card that beats the top of the pile (§2.4)."""

    type: Literal["beat"] = "beat"
    seat: Seat
    card: CardCode


class Second(_Model):
    """The second card played on one's own beating card (§2.5)."""

    type: Literal["second"] = "second"
    seat: Seat
    card: CardCode


class Take(_Model):
    """Taking cards from the pile (§2.6). ``count``, if given, must match the rules."""

    type: Literal["take"] = "take"
    seat: Seat
    count: int | None = Field(default=None, ge=1, le=36)


class Resign(_Model):
    """A player still holding cards gives the game up and loses (rules §3.4.1): any such seat, at any time in play."""

    type: Literal["resign"] = "resign"
    seat: Seat


class AgreeDraw(_Model):
    """The game ends drawn by agreement of every player still holding cards (rules §3.4.2).

    The event carries no seat: how the players agreed is not a rule of play and is not logged.
    """

    type: Literal["agree_draw"] = "agree_draw"


Move = Lead | Beat | Second | Take
"""A decision in play."""

Ending = Resign | AgreeDraw
"""An end of the game the players decide on, outside the order of play (rules §3.4)."""

Event = Annotated[
    ChooseTrump | Deal | Position | Lead | Beat | Second | Take | Resign | AgreeDraw, Field(discriminator="type")
]
"""Any event after the header."""

LogLine = Annotated[
    Start | ChooseTrump | Deal | Position | Lead | Beat | Second | Take | Resign | AgreeDraw,
    Field(discriminator="type"),
]
"""Any line of a log."""


# --- Notifications: what the rules did on their own ----------------------------------------


class SixPassed(_Model):
    """After the deal, a six of another player's trump passed to that player."""

    type: Literal["six_passed"] = "six_passed"
    card: CardCode
    from_seat: Seat
    to_seat: Seat


class Took(_Model):
    """A player took cards from the pile (bottom to top, as they lay)."""

    type: Literal["took"] = "took"
    seat: Seat
    cards: list[CardCode]
    whole_pile: bool


class WentOut(_Model):
    """A player has no cards left and takes no further part."""

    type: Literal["went_out"] = "went_out"
    seat: Seat
    place: int = Field(description="1 for the first player to go out, 2 for the next, ...")


class TurnPassed(_Model):
    """The turn passed to a new player (the moment positions are compared for repetition)."""

    type: Literal["turn"] = "turn"
    seat: Seat
    phase: Literal["lead", "respond"]


class GameOver(_Model):
    """The game ended; see :class:`rules.state.Outcome` for the fields of ``outcome``."""

    type: Literal["game_over"] = "game_over"
    result: Literal["loss", "draw"]
    loser: Seat | None = None
    reason: Literal["tie_check", "repetition", "agreement", "resigned"] | None = None


Notification = Annotated[SixPassed | Took | WentOut | TurnPassed | GameOver, Field(discriminator="type")]


# --- JSON -------------------------------------------------------------------------------------

EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(LogLine)
NOTIFICATION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Notification)


class EventError(ValueError):
    """A line that is not a well-formed event; the message says what is wrong, in one line."""


def _describe(error: dict[str, Any], kind: str) -> str:
    where = ".".join(str(part) for part in error["loc"] if part != kind)
    if error["type"] == "string_pattern_mismatch":
        message = f"{error['input']!r} is {plain_problem(error)}"
    elif error["type"] == "int_type" and isinstance(error["input"], _LongInteger):
        message = f"out of range: an integer of {error['input'].digits} digits"
    elif _out_of_seats(error):
        message = f"{error['input']} is {plain_problem(error)}"
    elif error["type"] == "string_unicode":  # "\ud800": a lone surrogate, which no UTF-8 text can hold
        message = f"{error['input']!r} holds a lone surrogate, which is no Unicode character"
    else:
        message = plain_problem(error)
    return f"{where}: {message}" if where else message


def plain_problem(error: dict[str, Any]) -> str:
    """What one pydantic error of a log line or a message says is wrong, in the words of JSON and of the game, and
    without the value itself (a log's refusal adds it where it helps; the server's never repeats what it was sent).

    >>> plain_problem({"type": "model_type", "loc": ("event",), "msg": "Input should be a valid dictionary"})
    'Input should be an object'
    >>> plain_problem({"type": "less_than_equal", "loc": ("event", "seat"), "msg": "Input should be ... 3"})
    'not a seat: seats are numbered 0 to players-1 (0 to 3 at most)'
    """
    if error["type"] == "string_pattern_mismatch":
        return "not a card code (rank 6-9 T J Q K A, then suit S H D C)"
    if error["type"] == "missing":
        return "missing"
    if error["type"] == "value_error":  # a check of the model's own: its reason, without pydantic's "Value error, "
        return str(error["ctx"]["error"])
    if _out_of_seats(error):
        # "Input should be less than or equal to 3" would mislead in a duel, where 2 is no seat either
        return "not a seat: seats are numbered 0 to players-1 (0 to 3 at most)"
    if error["type"] in _JSON_WORDS:  # pydantic names Python's types (a dictionary or instance of RuleOptions)
        return _JSON_WORDS[error["type"]]
    return str(error["msg"])


def _out_of_seats(error: dict[str, Any]) -> bool:
    return error["type"] in ("less_than_equal", "greater_than_equal") and _names_a_seat(error["loc"])


_SEAT_FIELDS = frozenset({"seat", "dealer", "to_act", "out_order"})
"""The fields that hold a seat (``out_order`` a list of them)."""


def _names_a_seat(loc: tuple[Any, ...]) -> bool:
    """Whether the place ``loc`` of a pydantic error holds a seat: its last field name is one of seats."""
    names = [part for part in loc if isinstance(part, str)]
    return bool(names) and names[-1] in _SEAT_FIELDS


_JSON_WORDS = {
    "model_type": "Input should be an object",
    "model_attributes_type": "Input should be an object",  # a member of a discriminated union: a move's event
    "dict_type": "Input should be an object",
    "list_type": "Input should be an array",
}
"""What a field should have been, in the words of JSON, for the pydantic errors that name a Python type."""


def parse_event(line: str | bytes | dict[str, Any]) -> Any:
    """Parse one log line (JSON text or an already decoded object) into its event model.

    Raises :class:`EventError` with a one-line reason: malformed JSON, no object,
    unknown ``type``, missing or mistyped field.
    """
    if isinstance(line, dict):
        data = line
    else:
        if _depth(line) > MAX_DEPTH:
            raise EventError(f"arrays and objects nested more than {MAX_DEPTH} deep (log format §L1.8)")
        try:
            data = json.loads(line, parse_constant=_not_json, parse_int=_integer)
        except json.JSONDecodeError as error:
            raise EventError(f"malformed JSON: {_json_error(error)}") from None
        except ValueError as error:  # not UTF-8, or _not_json's
            raise EventError(f"malformed JSON: {error}") from None
    if not isinstance(data, dict):
        raise EventError(f"expected a JSON object, got {json_kind(data)}")
    if "type" not in data:
        raise EventError("missing field 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise EventError(f"type: expected a string naming the kind of event, got {json_kind(kind)}")
    if kind not in _KINDS:
        raise EventError(f"unknown event type {kind!r}")
    try:
        return EVENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        details = "; ".join(_describe(dict(e), kind) for e in error.errors())
        raise EventError(f"invalid {kind} event: {details}") from None


MAX_DEPTH = 512
"""How deep arrays and objects may nest in a line, the line's own object counting 1 (log format §L1.8)."""


def _depth(line: str | bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (only counted when it could be too deep)."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _json_error(error: json.JSONDecodeError) -> str:
    """Why a line is not JSON, and where: the column of the line (the parser's own "line 1" would contradict the
    line number of the log that the refusal starts with)."""
    where = error.doc[error.pos : error.pos + 1] if isinstance(error.doc, str) else ""
    if where == "\ufeff":  # Python's reason advises decoding with "utf-8-sig"
        return f"a byte order mark (U+FEFF) at column {error.colno}: only the very start of the file may hold one"
    return f"{error.msg.removesuffix(' at')} at column {error.colno}"


class _LongInteger:
    """An integer of more digits than Python converts (4,300): fine in an unknown field, out of range in any other."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _integer(digits: str) -> int | _LongInteger:
    try:
        return int(digits)
    except ValueError:
        return _LongInteger(len(digits.removeprefix("-")))


def json_kind(value: Any) -> str:
    """What kind of JSON value ``value`` was read from, as a refusal names it (in a log line or a message).

    >>> json_kind([]), json_kind(None), json_kind(7), json_kind({})
    ('an array', 'null', 'a number', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float, _LongInteger)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _not_json(name: str) -> Any:
    # Python's json module reads NaN and Infinity, which RFC 8259 does not have (log format §L1.6).
    raise ValueError(f"{name} is not a JSON value")


_KINDS = frozenset(
    {"start", "choose_trump", "deal", "position", "lead", "beat", "second", "take", "resign", "agree_draw"}
)


def event_dict(event: BaseModel) -> dict[str, Any]:
    """An event as the JSON object of a log line (optional fields left out when unset)."""
    return event.model_dump(mode="json", exclude_none=True)


def event_json(event: BaseModel) -> str:
    """An event as one compact log line (without the newline)."""
    return json.dumps(event_dict(event), separators=(",", ":"), ensure_ascii=False)
