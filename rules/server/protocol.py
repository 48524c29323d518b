"""The messages of the online table: HTTP bodies and WebSocket messages, as pydantic models.

Every message is a JSON object with a ``type``. A client talks to the server in two ways:

* HTTP JSON for the lobby: ``POST /api/tables`` (:class:`CreateTable` →
  :class:`TableCreated`), ``GET /api/tables`` (→ :class:`Lobby`), ``GET /api/tables/{id}``
  (→ :class:`TableInfo`), ``POST /api/tables/{id}/join`` (:class:`JoinTable` →
  :class:`Joined`), ``POST /api/tables/{id}/leave`` (:class:`LeaveTable` → :class:`Left`),
  ``POST /api/tables/{id}/rematch`` (:class:`RematchTable` → :class:`Rematched`).
* a WebSocket at ``/ws/tables/{id}`` for play: the client sends :data:`ClientMessage`
  (``hello`` first, then ``move``, ``resign``, ``draw``, ``next_hand``, ``ping``), the server sends
  :data:`ServerMessage` (``welcome``, ``update``, ``presence``, ``draw_offered``, ``error``, ``pong``).

Each ``update`` carries the table's event number ``event_no`` (1, 2, 3, ... over the
whole match) and everything a client needs to draw the table: that seat's
:class:`~rules.state.View` (its own hand and legal moves, never another seat's cards),
the last event in public form, the engine's notifications, the score and the hash of
the secret seed the current hand was dealt from. See ``docs/protocol.md``.

>>> parse_client_message('{"type": "hello", "token": null, "last_seen": null}')
Hello(type='hello', token=None, last_seen=None)
>>> parse_client_message('{"type": "x"}')
Traceback (most recent call last):
...
rules.server.protocol.ProtocolError: unknown message type 'x' (expected hello, move, resign, draw, next_hand or ping)
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.json_schema import JsonSchemaMode
from pydantic_core import PydanticCustomError

from rules.events import (
    AgreeDraw,
    Beat,
    ChooseTrump,
    Deal,
    Event,
    Lead,
    LogLine,
    Notification,
    Position,
    Resign,
    RuleOptions,
    Seat,
    Second,
    Take,
    json_kind,
    plain_problem,
)
from rules.options import DEALER, MUST_BEAT, PASS_SIXES, PLAYERS, Dealer, Players
from rules.players.levels import LEVELS
from rules.spec.schemas import ACCEPTED, DIALECT, SENT, combined, outcome_schema, with_dealer_a_seat
from rules.state import Outcome, View

PROTOCOL_VERSION = 1


class _Message(BaseModel):
    # Strict like the log events: "1" is not a seat. Unknown extra fields are ignored.
    # The schema of a message the server sends requires every field but one it leaves out (``exclude_if``): the
    # server sends whole messages, nulls kept (see dump). Of one it accepts, a field with a default is optional.
    model_config = ConfigDict(
        strict=True, extra="ignore", frozen=True, json_schema_serialization_defaults_required=True
    )


# --- Pieces shared by several messages -----------------------------------------------------------

NAME_LENGTH = 32
"""The longest display name, in Unicode code points of the name as stored (NFC, trimmed)."""

_JOINERS = frozenset("\u200c\u200d")
"""ZERO WIDTH NON-JOINER and JOINER: format characters, but Persian names and emoji sequences need them."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
"""Controls (newline, ESC, NUL, C1), format characters (bidi overrides, zero-width spaces) and line and
paragraph separators: what moves, hides or breaks the text around a name on another player's screen."""


def player_name(value: str | None) -> str | None:
    """The display name to store for ``value``, or :class:`ValueError` saying why it is refused.

    Another player's page or terminal shows the name, so nothing in it may act on the text around it:
    a character of :data:`_REFUSED_CATEGORIES` is refused wherever it is, except a joiner between two
    other characters of a word. Letters with their accents (Romanian ș, Czech ř, Kyrgyz ң) and combining
    marks are letters like any other. The name is put in normalization form C, so that a letter typed as
    a base and an accent counts once, and trimmed of surrounding spaces; nothing left is no name at all
    (null), as a client with an empty name box means. The length limit counts what is stored.

    >>> player_name("  Ștefan  "), player_name("s\u0326tefan"), player_name(" \u3000 "), player_name("")
    ('Ștefan', 'ștefan', None, None)
    >>> player_name("Ana\u202eoB")
    Traceback (most recent call last):
    ...
    ValueError: holds U+202E at character 4: no control or format character
    """
    if value is None:
        return None
    for index, char in enumerate(value):
        if unicodedata.category(char) in _REFUSED_CATEGORIES and not _inside_word(value, index):
            raise ValueError(f"holds U+{ord(char):04X} at character {index + 1}: no control or format character")
    name = unicodedata.normalize("NFC", value).strip()
    if len(name) > NAME_LENGTH:
        raise ValueError(f"is {len(name)} characters long; at most {NAME_LENGTH}")
    return name or None


def _inside_word(text: str, index: int) -> bool:
    """A joiner with a character on either side that is neither a space nor another joiner."""
    if text[index] not in _JOINERS or index == 0 or index == len(text) - 1:
        return False
    return all(not near.isspace() and near not in _JOINERS for near in (text[index - 1], text[index + 1]))


def stored_name(value: object) -> str | None:
    """A name read back from the database as :func:`player_name` would store it today (null if it would refuse
    it): a table whose seat was taken before names were checked shows no control character either."""
    if not isinstance(value, str):
        return None
    try:
        return player_name(value)
    except ValueError:
        return None


def _checked_name(value: str | None) -> str | None:
    try:
        return player_name(value)
    except ValueError as error:
        raise PydanticCustomError("player_name", str(error)) from None


PlayerName = Annotated[
    str | None,
    AfterValidator(_checked_name),
    Field(
        description=f"A display name: at most {NAME_LENGTH} characters (code points) once put in Unicode "
        "normalization form C and trimmed of surrounding spaces, which is what is stored and shown; empty or "
        "only spaces: no name (null). Refused: control and format characters (Unicode Cc, Cf) and line and "
        "paragraph separators (Zl, Zp), except a joiner (U+200C, U+200D) between two characters of a word."
    ),
]
"""The ``name`` of a create or a join, stored as :func:`player_name` makes it."""

Status = Literal["waiting", "playing", "finished"]


def table_status(kinds: Iterable[str], hand: int, *, match_over: bool) -> Status:
    """A table's ``status`` from its seats' kinds, its hand number and whether its match is over.

    ``waiting`` only while a seat is free before the first hand. Once every seat is taken the first hand
    starts by itself, but as an event of its own that the server commits after the ``seat_taken`` that
    filled the table: read from the hand number alone, the status would say ``waiting`` with every seat
    taken in that event's update, in the answer to the create or join that filled it, and in the lobby.
    """
    if match_over:
        return "finished"
    if hand == 0 and any(kind == "free" for kind in kinds):
        return "waiting"
    return "playing"


class SeatInfo(_Message):
    """Who sits in a seat: nobody yet (``free``), a person (``human``) or the server's bot."""

    seat: Seat
    kind: Literal["free", "human", "computer"]
    name: str | None = Field(default=None, description="The name a person gave when joining.")
    level: str | None = Field(default=None, description="The bot's level, for a computer seat.")
    connected: bool = Field(default=False, description="Whether a person is connected to this seat right now.")
    left: bool = Field(
        default=False,
        description="A free seat whose player left it (before the match, during it or after it is over), "
        "not a seat never taken.",
    )
    held_until: float | None = Field(
        default=None,
        description="A free seat of a rematch's new table kept for its player of the match before: the Unix time "
        "the hold ends, until which only that player's rematch request can take the seat (a join is refused with "
        "seat_held); null: not kept.",
    )


class TableInfo(_Message):
    """A table as the lobby shows it."""

    id: str
    players: Players
    rules: RuleOptions
    seats: list[SeatInfo]
    status: Status = Field(
        description="waiting: a seat is free and the first hand has not started; playing: every seat is taken "
        "or the first hand has started (hand 0 only until the first hand_started, which follows at once); "
        "finished: the match is over."
    )
    hand: int = Field(description="The number of the current hand, 1 for the first; 0 before it starts.")
    event_no: int = Field(description="The number of the table's last event; 0 when nothing has happened.")
    clock: float | None = Field(default=None, description="Seconds per move, if the table has a clock.")
    match_hands: int | None = Field(default=None, description="How many hands the match lasts; null: no limit.")
    spectators: int = 0
    rematch: str | None = Field(
        default=None,
        description="Once the match is over and a player asked for a rematch: the id of the new table "
        "(POST /api/tables/{id}/rematch); null until then.",
    )
    rematch_of: str | None = Field(
        default=None,
        description="At a rematch's new table: the id of the finished table whose rematch it is (where its players "
        "of the match before ask for their kept seats); null at a table made in the lobby.",
    )


class Score(_Message):
    """The running score of the match (rules §4)."""

    hand: int = Field(description="The number of the current hand, 1 for the first; 0 before it starts.")
    dealer: int | None = Field(description="The dealer of the current hand.")
    hands_lost: list[int] = Field(description="Per seat, how many hands it has lost.")
    draws: int = 0
    hands_played: int = Field(default=0, description="Hands finished so far.")
    match_hands: int | None = None
    match_over: bool = False


SEED_HASH_PATTERN = "^[0-9a-f]{64}$"
"""A seed's hash as the server sends it: SHA-256 in lower-case hex (deals §D1.1)."""


# --- Events in public form -----------------------------------------------------------------------


class SeatTaken(_Message):
    """A person sat down in a seat."""

    type: Literal["seat_taken"] = "seat_taken"
    seat: Seat
    name: str | None = None


class SeatFreed(_Message):
    """A person left their seat; it is free again (the game waits for someone to take it)."""

    type: Literal["seat_freed"] = "seat_freed"
    seat: Seat


class HandStarted(_Message):
    """A new hand: the dealer, and the SHA-256 of the secret seed the deal will come from."""

    type: Literal["hand_started"] = "hand_started"
    hand: int
    dealer: Seat
    seed_hash: str = Field(
        pattern=SEED_HASH_PATTERN, description="sha256 hex digest of the seed's decimal digits (UTF-8)."
    )


class RematchMade(_Message):
    """The match is over and a player asked for a rematch: the new table, with the same rules, is ``table``."""

    type: Literal["rematch"] = "rematch"
    table: str = Field(description="The id of the new table.")
    seat: Seat = Field(description="The seat whose player asked for it first.")


class DealPublic(_Message):
    """The deal, as everybody may see it: how many cards each seat was dealt (before sixes pass)."""

    type: Literal["deal"] = "deal"
    hand_sizes: list[int]


PlayerEvent = Annotated[ChooseTrump | Lead | Beat | Second | Take, Field(discriminator="type")]
"""An event a seat sends: its trump choice or a move in play (the log events of docs/log-format.md)."""

PublicEvent = Annotated[
    SeatTaken
    | SeatFreed
    | HandStarted
    | DealPublic
    | ChooseTrump
    | Lead
    | Beat
    | Second
    | Take
    | Resign
    | AgreeDraw
    | RematchMade,
    Field(discriminator="type"),
]
"""An event of the table as every connection may see it."""


def public_event(event: Event) -> PublicEvent:
    """An event of a game as every connection sees it: a deal as its hand sizes, never the cards."""
    if isinstance(event, Position):
        raise ValueError("a table's games start with a deal, never from a position")
    return DealPublic(hand_sizes=[len(hand) for hand in event.hands]) if isinstance(event, Deal) else event


# --- HTTP bodies ---------------------------------------------------------------------------------


class ComputerSeat(_Message):
    """A seat the server plays, at a computer level: ``easy``, ``medium``, ``hard`` or ``perfect``."""

    seat: Seat
    # A string, not a Literal: an unknown level is refused by the players' own words (rules.players.make_player).
    level: str = Field(default="easy", json_schema_extra={"enum": list(LEVELS)})


class CreateTable(_Message):
    """``POST /api/tables``: a new table. With ``join`` the creator takes a seat at once."""

    players: Players = PLAYERS
    dealer: Dealer = Field(default=DEALER, description="The dealer of the first hand.")
    pass_sixes: bool = PASS_SIXES
    must_beat: bool = MUST_BEAT
    computer: list[ComputerSeat] = Field(default_factory=list, description="The seats the server plays.")
    clock: float | None = Field(
        default=None, ge=1, le=3600, description="Seconds per move; when they run out the server moves."
    )
    match_hands: int | None = Field(default=None, ge=1, le=1000, description="Hands in the match; null: no limit.")
    join: bool = Field(default=True, description="Whether the creator takes a seat.")
    seat: int | None = Field(default=None, ge=0, le=3, description="The seat to take; null: the first free one.")
    name: PlayerName = None


class TableCreated(_Message):
    type: Literal["table_created"] = "table_created"
    table: TableInfo
    seat: int | None = None
    token: str | None = Field(default=None, description="The secret seat token; keep it, it is shown once.")


class JoinTable(_Message):
    """``POST /api/tables/{id}/join``: take a free seat (null: the first free one)."""

    seat: int | None = Field(default=None, ge=0, le=3)
    name: PlayerName = None


class Joined(_Message):
    type: Literal["joined"] = "joined"
    table_id: str
    seat: Seat
    token: str


class LeaveTable(_Message):
    """``POST /api/tables/{id}/leave``: give up the seat of this token."""

    token: str = Field(description="The seat's token; one that holds no seat (however long) is refused as bad_token.")


class Left(_Message):
    type: Literal["left"] = "left"
    table_id: str
    seat: Seat


class RematchTable(_Message):
    """``POST /api/tables/{id}/rematch``: once the match of this table is over, the same match again at a new table,
    in the seat this token holds here. The first call makes the new table; every call seats its caller there."""

    token: str = Field(description="A seat's token at this (old) table; one that holds no seat is refused: bad_token.")
    name: PlayerName = Field(
        default=None,
        description="The name to sit down with at the new table, as for a join; null or absent: the name the seat "
        "has at this table.",
    )


class Rematched(_Message):
    type: Literal["rematched"] = "rematched"
    table: TableInfo = Field(description="The new table.")
    seat: Seat = Field(description="Your seat there: the one you had at the old table.")
    token: str = Field(description="The secret seat token at the new table; the same for every call with one token.")
    created: bool = Field(description="Whether this call made the new table (false: it joined the one made before).")


class Lobby(_Message):
    """``GET /api/tables``: the matches not over and not asleep that one can join or watch, the table with the latest
    news (created, a seat taken or left, a hand started) first (docs/protocol.md, *The lobby's order*)."""

    type: Literal["lobby"] = "lobby"
    tables: list[TableInfo]


# --- WebSocket: client to server -----------------------------------------------------------------


class Hello(_Message):
    """The first message on a connection: a seat token (null: watch as a spectator).

    ``last_seen`` is the event number of the last update received before a reconnect:
    the server then sends exactly the updates after it, or one full resync.
    """

    type: Literal["hello"] = "hello"
    token: str | None = Field(
        default=None, description="The seat's token; one that holds no seat (however long) is refused as bad_token."
    )
    last_seen: int | None = Field(default=None, ge=0)


class MoveMessage(_Message):
    """Play ``event`` (one of the view's ``legal_moves``). ``last_seen`` must be the table's current
    event number: a move sent twice, or against an older picture, is refused without effect."""

    type: Literal["move"] = "move"
    event: PlayerEvent
    last_seen: int = Field(ge=0)


class ResignMessage(_Message):
    """Give the current hand up (rules §3.4.1): this seat, still holding cards, loses it. Any time in play,
    whoever is to act; ``last_seen`` as for a move, so that a resignation never lands on a later hand."""

    type: Literal["resign"] = "resign"
    last_seen: int = Field(ge=0)


class DrawMessage(_Message):
    """``agree`` true: offer a draw, or accept the one on the table; false: decline it (rules §3.4.2).

    The hand ends drawn once every seat still holding cards agrees; a move ends the offer."""

    type: Literal["draw"] = "draw"
    agree: bool
    last_seen: int = Field(ge=0)


class NextHand(_Message):
    """Start the next hand of the match once the current one is over (any seated person may)."""

    type: Literal["next_hand"] = "next_hand"
    last_seen: int = Field(ge=0)


def _nonce(value: Any) -> Any:
    # One refusal for the three kinds a nonce may be: the union alone would refuse 1.5 twice, as "nonce.str: ...;
    # nonce.int: ...", naming Python's types. A boolean is no integer (strict), as everywhere in the protocol.
    if value is None or isinstance(value, str) or type(value) is int:
        return value
    raise PydanticCustomError("nonce_type", "Input should be a string, an integer or null")


Nonce = Annotated[str | int | None, BeforeValidator(_nonce)]
"""What a ``ping`` carries and its ``pong`` sends back as it was."""


class Ping(_Message):
    type: Literal["ping"] = "ping"
    nonce: Nonce = None


ClientMessage = Annotated[
    Hello | MoveMessage | ResignMessage | DrawMessage | NextHand | Ping, Field(discriminator="type")
]


# --- WebSocket: server to client -----------------------------------------------------------------


class Welcome(_Message):
    """The answer to ``hello``: which seat this connection is (null: spectator)."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    table: TableInfo
    seat: int | None


class HandEnd(_Message):
    """Sent with every update while the current hand is over: its full log and the revealed seed.

    Check the deal: ``sha256(seed.encode()).hexdigest() == seed_hash`` and
    ``Game(RuleSet(...), seed=int(seed)).sample_deal()`` equals the log's ``deal`` line.
    """

    hand: int
    outcome: Outcome
    seed: str = Field(pattern=r"^(0|[1-9][0-9]*)$", description="The secret seed, in decimal digits (deals §D1.1).")
    seed_hash: str = Field(pattern=SEED_HASH_PATTERN)
    log: list[LogLine] = Field(
        description="The hand's replay log (docs/log-format.md): header, trump choice, deal, moves."
    )


class Update(_Message):
    """The table after event ``event_no``, as this connection may see it.

    ``resync`` is true for a full picture (after ``hello``) rather than one event:
    ``event`` and ``notifications`` are then those of the last event, if any.
    """

    type: Literal["update"] = "update"
    table_id: str
    event_no: int
    resync: bool = False
    event: PublicEvent | None = None
    by: Literal["player", "computer", "clock", "server"] | None = Field(
        default=None, description="Who made the event: the seat's person, its bot, the clock (timeout), the server."
    )
    notifications: list[Notification] = Field(default_factory=list)
    view: View | None = Field(description="This seat's view (a spectator's: the public one); null before hand 1.")
    score: Score
    seats: list[SeatInfo]
    status: Status
    seed_hash: str | None = Field(
        default=None, pattern=SEED_HASH_PATTERN, description="The current hand's seed hash; null before hand 1."
    )
    deadline: float | None = Field(
        default=None, description="Unix time (seconds) when the clock of the seat to act runs out."
    )
    hand_end: HandEnd | None = None
    rematch: str | None = Field(
        default=None, description="The id of the rematch's new table, once a player asked for one; else null."
    )
    rematch_of: str | None = Field(
        default=None, description="At a rematch's new table: the id of the finished table it follows; else null."
    )


class Presence(_Message):
    """Who is connected changed, with no event: a person's connection to their seat opened or closed.

    ``seats`` is the whole list, as in an update, with ``connected`` up to date; ``event_no`` is the
    table's current event number (unchanged: presence is not an event and is never replayed).
    """

    type: Literal["presence"] = "presence"
    table_id: str
    event_no: int
    seats: list[SeatInfo]


ErrorCode = Literal[
    "bad_json",
    "bad_message",
    "unknown_type",
    "too_large",
    "rate_limited",
    "hello_first",
    "hello_timeout",
    "already_hello",
    "bad_token",
    "spectator",
    "not_your_seat",
    "not_your_turn",
    "illegal",
    "stale",
    "no_game",
    "hand_not_over",
    "match_over",
    "match_not_over",
    "no_offer",
    "not_found",
    "table_full",
    "too_many_connections",
    "seat_taken",
    "seat_held",
    "too_many_tables",
    "bad_request",
    "internal",
    "unavailable",
    "bad_log",
    "no_move",
    "busy",
]
"""Every error code; ``bad_log``, ``no_move`` and ``busy`` are those of the analysis board's HTTP requests."""


class RuleRefusal(_Message):
    """Why the rules refuse a move, as data: a stable ``code``, the clause of docs/rules.md, the seat, the cards."""

    code: str
    clause: str
    seat: int | None
    cards: list[str]
    message: str


def _absent(value: object) -> bool:
    return value is None


def _never_null(schema: dict[str, Any]) -> None:
    (kind,) = [option for option in schema.pop("anyOf") if option != {"type": "null"}]
    schema.pop("default", None)
    schema.update({key: value for key, value in kind.items() if key not in schema})


def _left_out(description: str, **constraints: Any) -> Any:
    """A field sent only when it has a value: left out, never null (so not required, and never null in the schema)."""
    return Field(
        default=None, exclude_if=_absent, json_schema_extra=_never_null, description=description, **constraints
    )


class ErrorMessage(_Message):
    """Something the client sent was refused; nothing changed. ``message`` says why in plain words."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    event_no: int | None = Field(
        default=None, description="The table's current event number; null before hello reached a table."
    )
    refusal: RuleRefusal | None = _left_out("For code `illegal` only: the rule that refused it.")
    line: int | None = Field(
        default=None, ge=1, description="Always null here: `bad_log`, whose line it would be, is an HTTP error only."
    )


class HttpError(_Message):
    """The body of an HTTP error (a 4xx or 5xx status): nothing changed. ``message`` says why in plain words.

    A field that does not apply to the code is left out (never null)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    refusal: RuleRefusal | None = _left_out("For code `illegal` only: the rule that refused it.")
    line: int | None = _left_out("For code `bad_log` only: the number of the log's first bad line, from 1.", ge=1)


class DrawOffered(_Message):
    """A draw offer of the current hand changed (not an event; sent to every connection of the table).

    ``agreed``: the seats that agree now (the one who offered first); empty once the offer is over.
    ``declined``: the seat whose refusal ended it, else null. Computer seats answer at once."""

    type: Literal["draw_offered"] = "draw_offered"
    table_id: str
    event_no: int
    agreed: list[Seat]
    declined: Seat | None = None


class Pong(_Message):
    type: Literal["pong"] = "pong"
    nonce: str | int | None = None
    event_no: int


ServerMessage = Annotated[Welcome | Update | Presence | DrawOffered | ErrorMessage | Pong, Field(discriminator="type")]


# --- Parsing and the schema ----------------------------------------------------------------------

CLIENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
SERVER_ADAPTER: TypeAdapter[Any] = TypeAdapter(ServerMessage)
_CLIENT_TYPES = ("hello", "move", "resign", "draw", "next_hand", "ping")


class ProtocolError(ValueError):
    """A message that cannot be accepted; ``code`` is an :data:`ErrorCode`, the text one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def describe_validation(error: ValidationError) -> str:
    """A pydantic error in one line: ``where: what`` for each problem, in the words of JSON and of the game, as a
    log line's refusal says it (:func:`rules.events.plain_problem`), but never the input itself."""
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"] if not _is_tag(part))
        message = plain_problem(dict(item))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _is_tag(part: object) -> bool:
    # Discriminated unions put the tag ("beat", "hello") in the error location; leave it out.
    return isinstance(part, str) and part in {*_CLIENT_TYPES, "choose_trump", *_MOVES}


_MOVES = ("lead", "beat", "second", "take")


MAX_DIGITS = 4300
"""The longest number a client may send, in digits: Python's own limit for integers (``sys.int_info``), which
:func:`loads` applies to decimal fractions too."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _float(literal: str) -> float:
    if sum(char.isdigit() for char in literal) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    value = float(literal)
    if math.isinf(value):
        raise ValueError("a number beyond a double's range")  # 1e400 would be read as infinity
    return value


def loads(text: str | bytes, what: str = "the message") -> Any:
    """JSON text from a client as Python values; :class:`ProtocolError` ``bad_json`` if it is not JSON the server
    can take: malformed, not UTF-8 (bytes are decoded strictly, no byte order mark), ``NaN`` or ``Infinity``
    (Python's extensions, no JSON), nested too deeply, a number of more than :data:`MAX_DIGITS` digits (an integer
    or not) or beyond a double's range (``1e400``), or a string with a lone UTF-16 surrogate (``"\\ud800"``:
    JSON may write it, but it is no text and could be sent to nobody).

    >>> loads('{"nonce": "\\\\ud800"}')
    Traceback (most recent call last):
    ...
    rules.server.protocol.ProtocolError: the message is not valid JSON text: a string holds a lone surrogate
    >>> loads('[NaN]')
    Traceback (most recent call last):
    ...
    rules.server.protocol.ProtocolError: the message is not valid JSON (or nests or numbers too large)
    """
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")  # strictly: json.loads(bytes) would let a surrogate's bytes pass
        data = json.loads(text, parse_constant=_no_constant, parse_float=_float)
    except (ValueError, RecursionError):  # also: not UTF-8, nested too deep, a number with too many digits
        raise ProtocolError("bad_json", f"{what} is not valid JSON (or nests or numbers too large)") from None
    if "\\u" in text and not _all_text(data):
        raise ProtocolError("bad_json", f"{what} is not valid JSON text: a string holds a lone surrogate")
    return data


def _all_text(value: Any) -> bool:
    """Every string in ``value`` (keys too) can be written as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError:
                return False
    return True


def _mistyped_type(message: dict[str, Any], name: str) -> str:
    """What is wrong with a ``type`` field that holds no string: missing, or which kind of JSON it holds."""
    if "type" not in message:
        return f"{name} is missing"
    return f"{name} must be a string, not {json_kind(message['type'])}"


def _shown_type(kind: str) -> str:
    """An unknown type as a refusal shows it: quoted, or by its length where quoting it would flood the message."""
    return repr(kind) if len(kind) <= 40 else f"of {len(kind)} characters"


def parse_client_message(text: str | bytes) -> Any:
    """Parse a WebSocket text message from a client; raises :class:`ProtocolError`."""
    data = loads(text)
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", f"expected a JSON object, got {json_kind(data)}")
    kind = data.get("type")
    if kind not in _CLIENT_TYPES:
        if not isinstance(kind, str):  # a mistyped field, as docs/protocol.md's bad_message says
            raise ProtocolError("bad_message", _mistyped_type(data, "the message's 'type'"))
        expected = "hello, move, resign, draw, next_hand or ping"
        raise ProtocolError("unknown_type", f"unknown message type {_shown_type(kind)} (expected {expected})")
    if kind == "move":
        event = data.get("event")
        event_kind = event.get("type") if isinstance(event, dict) else None
        if isinstance(event, dict) and event_kind not in ("choose_trump", *_MOVES):
            moves = "a move is choose_trump, lead, beat, second or take"
            if not isinstance(event_kind, str):
                raise ProtocolError("bad_message", f"{_mistyped_type(event, 'event.type')}: {moves}")
            raise ProtocolError("bad_message", f"unknown event.type {_shown_type(event_kind)}: {moves}")
    try:
        return CLIENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise ProtocolError("bad_message", f"invalid {kind} message: {describe_validation(error)}") from None


def loads_object(data: bytes, what: str = "the request body") -> dict[str, Any]:
    """An HTTP request's body, which must be a JSON object; :class:`ProtocolError` ``bad_json`` if it is not JSON the
    server can take (see :func:`loads`), ``bad_request`` naming what it is instead, an empty body included (no
    endpoint takes one for ``{}``: a client that means the defaults says so).

    >>> loads_object(b" ")
    Traceback (most recent call last):
    ...
    rules.server.protocol.ProtocolError: the request body is empty: send a JSON object ({} for every default)
    >>> loads_object(b"[1]")
    Traceback (most recent call last):
    ...
    rules.server.protocol.ProtocolError: the request body must be a JSON object, not an array
    """
    if not data.strip():
        raise ProtocolError("bad_request", f"{what} is empty: send a JSON object ({{}} for every default)")
    value = loads(data, what)
    if not isinstance(value, dict):
        raise ProtocolError("bad_request", f"{what} must be a JSON object, not {json_kind(value)}")
    return value


_SCHEMA_PARTS: dict[str, tuple[TypeAdapter[Any], JsonSchemaMode]] = {
    "ClientMessage": (CLIENT_ADAPTER, ACCEPTED),
    "ServerMessage": (SERVER_ADAPTER, SENT),
    "CreateTable": (TypeAdapter(CreateTable), ACCEPTED),
    "TableCreated": (TypeAdapter(TableCreated), SENT),
    "JoinTable": (TypeAdapter(JoinTable), ACCEPTED),
    "Joined": (TypeAdapter(Joined), SENT),
    "LeaveTable": (TypeAdapter(LeaveTable), ACCEPTED),
    "Left": (TypeAdapter(Left), SENT),
    "RematchTable": (TypeAdapter(RematchTable), ACCEPTED),
    "Rematched": (TypeAdapter(Rematched), SENT),
    "Lobby": (TypeAdapter(Lobby), SENT),
    "TableInfo": (TypeAdapter(TableInfo), SENT),
    "HttpError": (TypeAdapter(HttpError), SENT),
}
"""The parts of the schema: what the server accepts (a field with a default may be left out) and what it sends
(every field it always sends is required, null or not)."""


def protocol_schema() -> dict[str, Any]:
    """One JSON Schema (draft 2020-12) for every message of the protocol.

    The document validates any WebSocket message (client or server); the HTTP bodies are
    under ``$defs`` (``CreateTable``, ``TableCreated``, ``JoinTable``, ``Joined``, ..., ``HttpError``).
    A model the client sends and the server sends too, whose two schemas differ, is two definitions:
    ``Take-Input`` in a ``move``, ``Take-Output`` in what the server sends (:func:`rules.spec.schemas.combined`).

    >>> schema = protocol_schema()
    >>> schema["$schema"], sorted(schema["$defs"])[:3]
    ('https://json-schema.org/draft/2020-12/schema', ['AgreeDraw', 'Beat', 'ChooseTrump'])
    >>> schema["$defs"]["Take-Input"]["required"], schema["$defs"]["Take-Output"]["required"]
    (['type', 'seat'], ['type', 'seat', 'count'])
    """
    defs = combined(_SCHEMA_PARTS)
    defs["Outcome"] = outcome_schema(defs["Outcome"])
    for name in ("Start", "CreateTable"):
        defs[name] = with_dealer_a_seat(defs[name])
    return {
        "$schema": DIALECT,
        "$id": "https://your-trumps.example/spec/protocol.schema.json",
        "title": "Svoi Kozyri online table protocol",
        "description": f"Protocol version {PROTOCOL_VERSION}: WebSocket messages (client or server); "
        "HTTP bodies under $defs. See docs/protocol.md.",
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(defs.items())),
    }


def dump(message: BaseModel) -> str:
    """A server message as compact JSON text: every field, those that are null too (simpler clients), but one its
    model leaves out when it has no value (``exclude_if``). So the schema's ``required`` lists what it holds."""
    return message.model_dump_json()
