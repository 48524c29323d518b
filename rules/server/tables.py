"""Tables: seats, the match they play, and the connections watching them.

A :class:`Table` is the configuration it was created with plus its numbered events
(people sitting down and leaving, hands starting, trump choices, deals, moves). Every
change goes the same way, under the table's lock:

1. a game event is pushed into the engine's :class:`~rules.game.Game`, which refuses it
   (changing nothing) unless it is legal,
2. the event is committed to the :class:`~rules.server.store.Store` (a game event
   the database refuses is taken back; if another server process committed that event
   number first, the table reads what it missed and the request is refused as ``stale``),
3. the table's bookkeeping is updated (the same code rebuilds a table from the store at
   start-up),
4. each connection is sent its update: its own seat's view, never another seat's cards.

The server's own moves (the deal, computer seats, a move forced by the clock) are made
by a per-table driver task; computer players think in worker processes, off the event loop
(see :mod:`rules.server.bots`). When several processes share the database, only the one
holding the table's lead makes them (the others keep trying to take it over, once a second,
while there is such work to do, and a process its players are connected to asks a leader
serving none of them for it: :meth:`Table.take_lead`), and events committed elsewhere are
applied and announced here as they are heard of (:meth:`Table.absorb_soon`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import random
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.events import AgreeDraw, Event, Notification, Resign, RuleOptions, event_dict, parse_event
from rules.game import Game, IllegalEvent
from rules.match import Match
from rules.options import Dealer, Players, RuleSet, dealer_problem
from rules.players import LEVELS, make_player
from rules.players.draws import accepts_draw
from rules.server import metrics
from rules.server.bots import Bots
from rules.server.limits import Settings
from rules.server.protocol import (
    CreateTable,
    DrawOffered,
    HandEnd,
    HandStarted,
    Presence,
    PublicEvent,
    RematchMade,
    Score,
    SeatFreed,
    SeatInfo,
    SeatTaken,
    Status,
    TableInfo,
    Update,
    public_event,
    stored_name,
    table_status,
)
from rules.server.store import DrawAnswer, DrawOffer, Store, StoreConflict, StoreError
from rules.server.verify import seed_hash

if TYPE_CHECKING:
    from rules.server.elsewhere import Presences

log = logging.getLogger("rules.server")

LEAD_RETRY = 1.0
"""Seconds between attempts to take over a table's lead held by another process (which may have died)."""

ASK_SECONDS = 5.0
"""Seconds at least between two requests of a process serving a table's players to the table's leader elsewhere
to hand the lead over (see :meth:`Table.take_lead`)."""

NEWS = ("seat_taken", "seat_freed", "hand_started")
"""The events that are news in the lobby, besides the table's creation: those that change what the lobby shows of a
table beyond its event number, which every process of a site hears of (:mod:`rules.server.elsewhere`). Each is
stored with the Unix time it was made (``at``), so that the lobby's order is the same on every process, and after a
restart or a table's sleep."""

TABLE_EVENTS = ("seat_taken", "seat_freed", "rematch")
"""The events of a table that are no events of its games (every other one after a ``hand_started`` is a move)."""

Actor = Literal["player", "computer", "clock", "server"]
Record = dict[str, Any]
"""A stored event of a table: a JSON object with a ``type`` (see :meth:`Table.apply`)."""


class Refused(Exception):
    """A request the table refuses; ``code`` is a protocol error code, the message plain words."""

    def __init__(self, code: str, message: str, refusal: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.refusal = refusal  # for code "illegal": the rules' refusal as data (see rules.refusal)


class TableConfig(BaseModel):
    """What a table was created with; stored as JSON and fixed for its whole match."""

    model_config = ConfigDict(frozen=True)

    players: Players
    dealer: Dealer
    pass_sixes: bool
    must_beat: bool
    computer: dict[int, str] = Field(description="seat -> level")
    clock: float | None
    match_hands: int | None
    holds: dict[int, float] = Field(
        default_factory=dict,
        description="seat -> the Unix time until which a rematch's new table keeps that free seat for its player of "
        "the match before (see hold_lasts); none for a table made in the lobby",
    )
    rematch_of: str | None = Field(
        default=None, description="a rematch's new table: the id of the finished table whose rematch it is"
    )

    def stored(self) -> dict[str, Any]:
        """As the store keeps it (JSON): without ``holds`` and ``rematch_of`` when there are none, as before either
        was there (so a process of the version before reads it)."""
        unset = {"holds"} if not self.holds else set()
        if self.rematch_of is None:
            unset.add("rematch_of")
        return self.model_dump(mode="json", exclude=unset)

    @classmethod
    def of(cls, request: CreateTable) -> TableConfig:
        """The configuration asked for, or :class:`Refused` naming what is wrong with it."""
        players = request.players
        dealer = dealer_problem(players, request.dealer)
        if dealer is not None:
            raise Refused("bad_request", dealer)
        computer: dict[int, str] = {}
        for entry in request.computer:
            if entry.seat >= players:
                raise Refused("bad_request", f"computer seat {entry.seat} is not a seat of a {players}-player table")
            if entry.seat in computer:
                raise Refused("bad_request", f"computer seat {entry.seat} is given twice")
            if entry.level not in LEVELS:
                raise Refused("bad_request", f"unknown level {entry.level!r}: choose one of {', '.join(LEVELS)}")
            computer[entry.seat] = entry.level
        if len(computer) == players:
            raise Refused("bad_request", "at least one seat must be left for a person")
        if request.seat is not None and request.seat >= players:  # with join false too: no seat of the table
            raise Refused("bad_request", f"seat {request.seat} is not a seat of a {players}-player table")
        if request.join and request.seat is not None and request.seat in computer:
            raise Refused("bad_request", f"seat {request.seat} is not a free seat of this table")
        return cls(
            players=players,
            dealer=request.dealer,
            pass_sixes=request.pass_sixes,
            must_beat=request.must_beat,
            computer=computer,
            clock=request.clock,
            match_hands=request.match_hands,
        )

    def rule_set(self, dealer: int) -> RuleSet:
        return RuleSet(players=self.players, dealer=dealer, pass_sixes=self.pass_sixes, must_beat=self.must_beat)


_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def possible_table_id(text: str) -> bool:
    """Whether ``text`` could name a table (ids are short URL-safe tokens): anything else is not worth a query,
    and some of it (a NUL) is no text PostgreSQL takes."""
    return _TABLE_ID.fullmatch(text) is not None


def new_token() -> str:
    """A secret seat token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (a stolen database does not give seats away)."""
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_token(token: str, table_id: str) -> str:
    """The seat token at a rematch's new table ``table_id`` of whoever holds ``token`` at the old one: derived from
    it, so that asking again with the same token gives the same seat and token (43 URL-safe characters, as
    :func:`new_token` makes; it tells nothing of ``token``, and only its holder can work it out).

    >>> rematch_token("a" * 43, "abc") == rematch_token("a" * 43, "abc") != rematch_token("a" * 43, "abd")
    True
    """
    digest = hashlib.sha256(f"trumps-rematch:{table_id}:{token}".encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def hold_clock() -> float:
    """The Unix time a seat's hold is compared with (the hold's end is stored with the table, so every process decides
    alike); one function, so that a test can move it on."""
    return time.time()


def hold_lasts(until: float | None, now: float | None = None) -> bool:
    """Whether a hold ending at ``until`` (a Unix time; ``None``: no hold) still keeps its seat at ``now``."""
    return until is not None and (hold_clock() if now is None else now) < until


def lapse_holds(info: TableInfo, now: float | None = None) -> TableInfo:
    """``info`` (as it was made, maybe some time ago) without the holds that have ended since."""
    now = hold_clock() if now is None else now
    lapsed = {seat.seat for seat in info.seats if seat.held_until is not None and not hold_lasts(seat.held_until, now)}
    if not lapsed:
        return info
    seats = [seat.model_copy(update={"held_until": None}) if seat.seat in lapsed else seat for seat in info.seats]
    return info.model_copy(update={"seats": seats})


@dataclass
class SeatState:
    kind: Literal["free", "human", "computer"]
    left: bool = False
    """A free seat whose player left (``seat_freed``), as opposed to one nobody has taken yet."""
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    seed: int = field(default_factory=lambda: secrets.randbits(32))
    """The seed of this seat's computer player."""


class Connection:
    """One WebSocket, as a table sees it: a seat (``None``: spectator) and a queue of texts to send.

    Sending never waits on a slow client: texts queue up to a limit, then the connection is
    dropped, so one stalled reader cannot hold up a table. ``None`` in the queue means: close
    with :attr:`close_code`.
    """

    def __init__(self, seat: int | None, limit: int) -> None:
        self.seat = seat
        self.token_hash: str | None = None
        """The hash of the token this connection holds its seat with: the seat's credentials at hello."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._limit = limit
        self._greeting = 0
        """How many texts the answer to hello queued at once, allowed on top of the limit until they are sent."""
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self._limit + self._greeting:
            self.drop(1008, "too slow: updates were not read")
            return
        self.queue.put_nowait(text)

    def greet(self, texts: list[str]) -> None:
        """Queue the answer to hello (the welcome and the catch-up) whatever the limit: the client cannot have read
        any of it yet, so it is no sign of a slow reader (a catch-up holds at most the history's updates)."""
        if self.closed:
            return
        for text in texts:
            self.queue.put_nowait(text)
        self._greeting = self.queue.qsize()

    async def next_text(self) -> str | None:
        """The next text to send (``None``: close), once there is one."""
        if self.queue.empty():
            self._greeting = 0  # the answer to hello is out: from now on only the limit counts
        return await self.queue.get()

    def drop(self, code: int, reason: str) -> None:
        """Close after what is already queued has been sent."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            self.queue.put_nowait(None)


@dataclass
class _Last:
    """The table's last event as everyone may see it."""

    event: PublicEvent | None = None
    by: Actor | None = None
    notifications: list[Notification] = field(default_factory=list)


class Table:
    """One table and the match it plays."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        *,
        store: Store,
        settings: Settings,
        bots: Bots,
        created: float,
        creator: str,
        presences: Presences | None = None,
        on_presence: Callable[[Table], None] | None = None,
    ) -> None:
        self.id = table_id
        self.config = config
        self.created = created
        self.creator = creator
        self._store = store
        self._settings = settings
        self._bots = bots
        self.seats = [
            SeatState("computer", level=config.computer[seat]) if seat in config.computer else SeatState("free")
            for seat in range(config.players)
        ]
        self.event_no = 0
        self.hand_no = 0
        self.dealer: int | None = None
        self.game: Game | None = None
        self.seed: str | None = None
        self.seed_hash: str | None = None
        self.hand_end: HandEnd | None = None
        self.match = Match(config.rule_set(config.dealer), hands=config.match_hands)
        """The score sheet: who lost which hand, hence who deals next and whether the match is over."""
        self.last = _Last()
        self.deadline: float | None = None
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.quiet_since = time.monotonic()
        """When the table last had an event or a connection closed (for putting idle tables to sleep)."""
        self.news_at = created
        """When the table last had news (:data:`NEWS`) as stored with it, or its creation: the lobby's order. Nothing
        else moves a table up the lobby: not a move, not a player or spectator connecting or going."""
        self.attended_at = time.monotonic()
        """When somebody (a player or a spectator) was last connected to it here: when the last connection closed,
        or when the table was made or loaded here if nobody has been since (for leaving abandoned matches out of
        the lobby, which every clock and computer move would keep in if it went by :attr:`quiet_since`)."""
        self.used_at = time.monotonic()
        """When this process last had a use for it: a request, a connection opening or closing (a process
        sharing the database lets a table go some time after that; see :meth:`~rules.server.hub.Hub.let_go`)."""
        self.asleep = False
        """Set once the hub has put this table to sleep: this object is out of use; the hub loads a new one."""
        self._presence: frozenset[int] = frozenset()
        self._history: deque[tuple[int, dict[int | None, str]]] = deque(maxlen=settings.history)
        self._driving = False
        self._timer: asyncio.TimerHandle | None = None
        self._due: tuple[Game, int] | None = None
        """The move the clock runs for: the game, and how many events it had when that move became due."""
        self._moved_at: float | None = None
        """When the move due now became due: the time stored with the table's last game event or hand start. The
        clock runs from it, so every process (and this one after a restart) gives the same deadline."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._claiming = False
        self._asking = False
        self._asked_at = -ASK_SECONDS
        self._absorbing = False
        self._retry: asyncio.TimerHandle | None = None
        self._heard: dict[int, Record | None] = {}
        """Events other processes committed, as their notices brought them (by number), not yet applied."""
        self._must_read = False
        self._revoked: list[tuple[Connection, str]] = []
        """Connections whose seat the event being applied left or gave to another: closed once they have its update."""
        self.draw_agreed: set[int] = set()
        """The seats that agree to end the current hand drawn (rules §3.4.2), ended by any event: alone on the store,
        the offer itself; with a shared store, the offer stored (see :meth:`answer_draw`) as this process last heard
        or read it."""
        self._draw_seq = 0
        """(A shared store) the version of the stored offer :attr:`draw_agreed` is (see :class:`DrawOffer`)."""
        self._offer_heard: DrawOffer | None = None
        """(A shared store) the latest offer heard of in a notice, not yet applied."""
        self._presences = presences
        """(A shared store) who is connected to the other processes (counted in :meth:`connected_seats`)."""
        self._on_presence = on_presence
        """Called when this process's own connections to the table change (the hub tells the other processes)."""
        self.rematch: str | None = None
        """Once the match is over and a player asked for a rematch: the new table's id (a ``rematch`` event)."""
        self.holds: dict[int, float] = dict(config.holds)
        """(A rematch's new table) the seats kept for the players of the match before, until when (Unix time): a seat
        leaves it once it is taken or given up (its first ``seat_taken`` or ``seat_freed``), or once its time is up."""

    # --- what the table looks like ----------------------------------------------------------------

    @property
    def status(self) -> Status:
        """See :func:`~rules.server.protocol.table_status`: not ``waiting`` once every seat is taken."""
        return table_status((state.kind for state in self.seats), self.hand_no, match_over=self.match_over)

    @property
    def match_over(self) -> bool:
        return self.match.over

    def connected_seats(self) -> frozenset[int]:
        """The seats a person's connection holds, to this process or (a shared store) to another one."""
        here = self.local_presence()[0]
        if self._presences is None:
            return here
        return here | {seat for seat in self._presences.seats(self.id) if self.seats[seat].kind == "human"}

    def local_presence(self) -> tuple[frozenset[int], int]:
        """The seats a connection to this process holds, and how many spectators watch here."""
        seats = frozenset(conn.seat for conn in self.connections if conn.seat is not None and self.holds_seat(conn))
        return seats, sum(1 for conn in self.connections if conn.seat is None and not conn.closed)

    def spectators(self) -> int:
        """How many spectators watch the table, here and (a shared store) on the other processes."""
        elsewhere = self._presences.spectators(self.id) if self._presences is not None else 0
        return self.local_presence()[1] + elsewhere

    def held_until(self, seat: int, now: float | None = None) -> float | None:
        """When the hold on ``seat`` ends, if the seat is free and kept for its player of the match before at ``now``
        (see :attr:`holds`); else ``None``."""
        until = self.holds.get(seat)
        return until if self.seats[seat].kind == "free" and hold_lasts(until, now) else None

    def seat_infos(self) -> list[SeatInfo]:
        connected = self.connected_seats()
        now = hold_clock()
        return [
            SeatInfo(
                seat=seat,
                kind=state.kind,
                name=state.name,
                level=state.level,
                connected=seat in connected,
                left=state.left,
                held_until=self.held_until(seat, now),
            )
            for seat, state in enumerate(self.seats)
        ]

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id,
            players=self.config.players,
            rules=RuleOptions(pass_sixes=self.config.pass_sixes, must_beat=self.config.must_beat),
            seats=self.seat_infos(),
            status=self.status,
            hand=self.hand_no,
            event_no=self.event_no,
            clock=self.config.clock,
            match_hands=self.config.match_hands,
            spectators=self.spectators(),
            rematch=self.rematch,
            rematch_of=self.config.rematch_of,
        )

    def score(self) -> Score:
        return Score(
            hand=self.hand_no,
            dealer=self.dealer,
            hands_lost=self.match.hands_lost,
            draws=self.match.draws,
            hands_played=len(self.match.results),
            match_hands=self.config.match_hands,
            match_over=self.match_over,
        )

    def seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for seat, state in enumerate(self.seats):
            if state.token_hash is not None and hmac.compare_digest(state.token_hash, digest):
                return seat
        return None

    def render(self, *, resync: bool, only: set[int | None] | None = None) -> dict[int | None, str]:
        """The update after the last event, as JSON text, for each seat (and spectators, if any watch), or for the
        seats in ``only``.

        The parts everyone shares are serialized once; only the view differs from seat to seat.
        """
        # Every part is already a checked model: construct without validating again (it is the hot path).
        common = Update.model_construct(
            table_id=self.id,
            event_no=self.event_no,
            resync=resync,
            event=self.last.event,
            by=self.last.by,
            notifications=self.last.notifications,
            view=None,
            score=self.score(),
            seats=self.seat_infos(),
            status=self.status,
            seed_hash=self.seed_hash,
            deadline=self.deadline,
            hand_end=self.hand_end,
            rematch=self.rematch,
            rematch_of=self.config.rematch_of,
        ).model_dump_json(exclude={"view"})
        head = common[:-1] + ',"view":'
        game = self.game
        audience: list[int | None] = list(range(self.config.players))
        if any(conn.seat is None for conn in self.connections):
            audience.append(None)
        if only is not None:
            audience = [seat for seat in audience if seat in only]
        return {seat: head + ("null" if game is None else game.view(seat).model_dump_json()) + "}" for seat in audience}

    def catch_up(self, seat: int | None, last_seen: int | None) -> list[str]:
        """What a (re)connecting client must be sent: exactly the missed updates, or one full resync."""
        if last_seen is not None and last_seen == self.event_no:
            return []
        if last_seen is not None and last_seen < self.event_no and self._history:
            first = self._history[0][0]
            missed = [texts.get(seat) for no, texts in self._history if no > last_seen]
            if first <= last_seen + 1 and None not in missed:
                return [text for text in missed if text is not None]
        return [self.render(resync=True)[seat]]

    def at_rest(self) -> bool:
        """Nothing will happen at this table until a person acts: no server move due or under way, no clock running."""
        return not self._tasks and self.resting()

    def resting(self) -> bool:
        """No server move is due and no clock runs (work under way aside)."""
        return self.deadline is None and self._server_work() is None

    @property
    def busy(self) -> bool:
        """Work of this table's is under way here (a server move, reading events, taking the lead)."""
        return bool(self._tasks) or self.lock.locked()

    def touch(self) -> None:
        self.used_at = time.monotonic()

    # --- connections ------------------------------------------------------------------------------

    def detach(self, conn: Connection) -> None:
        """A connection closed: forget it, and tell the others if its seat is now without a connection."""
        self.connections.discard(conn)
        self.quiet_since = self.used_at = self.attended_at = time.monotonic()
        self.connections_changed()

    def connections_changed(self) -> None:
        """This process's connections changed (one closed, or one said hello and has its welcome and catch-up): tell
        its connections if the connected seats changed, and (through the hub) the other processes."""
        if self._on_presence is not None:
            self._on_presence(self)
        self.announce_presence()

    def announce_presence(self) -> None:
        """Tell every connection when the set of connected seats has changed since it was last told.

        Called when a connection closes, and after one said hello (once it has its welcome and
        catch-up, so that it hears the news too, after the updates it belongs to).
        """
        connected = self.connected_seats()
        if connected == self._presence:
            return
        self._presence = connected
        text = Presence(table_id=self.id, event_no=self.event_no, seats=self.seat_infos()).model_dump_json()
        for conn in list(self.connections):
            conn.send(text)

    # --- changes ----------------------------------------------------------------------------------

    def apply(self, record: Record) -> None:
        """Apply a stored event to the table in memory (at start-up, and live for all but game events)."""
        kind = record["type"]
        by: Actor = record.get("by", "server")
        if kind in NEWS:  # one stored by an older server has no time: it leaves the table's place in the lobby
            self.news_at = record.get("at", self.news_at)
        public: PublicEvent
        if kind == "seat_taken":
            seat = record["seat"]
            name = stored_name(record.get("name"))
            self.seats[seat] = SeatState("human", name=name, token_hash=record["token_hash"])
            self.holds.pop(seat, None)
            self._end_credentials(seat, "someone else took this seat")
            public = SeatTaken(seat=seat, name=name)
        elif kind == "seat_freed":
            seat = record["seat"]
            self.seats[seat] = SeatState("free", left=True)
            self.holds.pop(seat, None)
            self._end_credentials(seat, "you left this seat")
            public = SeatFreed(seat=seat)
        elif kind == "hand_started":
            self._moved_at = record.get("at")  # one stored by an older server has none: from now on
            self.hand_no = record["hand"]
            self.dealer = record["dealer"]
            self.seed = record["seed"]
            self.seed_hash = seed_hash(record["seed"])
            self.hand_end = None
            self.game = Game(self.config.rule_set(record["dealer"]), seed=int(record["seed"]))
            public = HandStarted(hand=self.hand_no, dealer=record["dealer"], seed_hash=self.seed_hash)
        elif kind == "rematch":
            self.rematch = record["table"]
            public = RematchMade(table=record["table"], seat=record["seat"])
        else:
            assert self.game is not None
            event = parse_event(event_part(record))
            self._moved_at = record.get("at")
            self._played(event, self.game.push(event), by)
            return
        self.event_no += 1
        self.last = _Last(public, by, [])
        self.draw_agreed = set()

    def _end_credentials(self, seat: int, reason: str) -> None:
        """Close (4000) this process's connections to ``seat`` that hold it with a token no longer current, once
        they have the update of this event (:meth:`_announce`): every connection gets it, the leaver's too.

        Every process applies every event of the tables it holds, so wherever the old holder is connected,
        its sockets close when the seat is left or taken over (and a move that races it is refused as
        ``stale``: the event number is taken; from now on :meth:`holds_seat` refuses it anyway).
        """
        current = self.seats[seat].token_hash
        self._revoked += [
            (conn, reason) for conn in self.connections if conn.seat == seat and conn.token_hash != current
        ]

    def holds_seat(self, conn: Connection) -> bool:
        """The connection's seat is still held with the token it said hello with."""
        seat = conn.seat
        return (
            seat is not None
            and not conn.closed
            and self.seats[seat].kind == "human"
            and self.seats[seat].token_hash == conn.token_hash
        )

    async def refresh(self) -> None:
        """Read your writes: apply whatever other processes committed that this table has not heard of yet
        (lock held). A decision about a token, a seat or a move is then taken on the committed truth.
        Nothing to do when this process is the store's only writer."""
        if self._store.shared:
            await self._catch_up()

    def _played(self, event: Event, notifications: list[Notification], by: Actor) -> None:
        """Bookkeeping after the game accepted ``event``."""
        assert self.game is not None
        public = public_event(event)
        if self.game.is_over():
            self._end_hand()
        self.event_no += 1
        self.last = _Last(public, by, notifications)
        self.draw_agreed = set()

    def _end_hand(self) -> None:
        game = self.game
        assert game is not None and self.seed is not None and self.seed_hash is not None
        outcome = game.outcome
        assert outcome is not None
        self.match.record(outcome)
        log: list[Any] = [game.header, *game.events]
        self.hand_end = HandEnd(hand=self.hand_no, outcome=outcome, seed=self.seed, seed_hash=self.seed_hash, log=log)

    async def commit(self, record: Record, *, by: Actor, event: Event | None = None) -> None:
        """Check, store, apply and announce one event. The caller holds :attr:`lock`.

        A game event (``event``, or parsed from ``record``) is pushed first, which checks it;
        if the store then refuses it, it is taken back, so the table never runs ahead of the disk.
        Raises :class:`Refused` (nothing changed) or :class:`~rules.server.store.StoreError`.
        """
        stored = {**record, "by": by, "at": time.time()}
        no = self.event_no + 1
        if record["type"] in NEWS:
            # Shielded: once the write is queued it will happen, so the table must apply it too.
            try:
                await asyncio.shield(self._append(no, stored))
            except StoreConflict:
                await self._lost_race()
            self.apply(stored)
        else:
            game = self.game
            if game is None or game.is_over():
                raise Refused("no_game", "no hand is being played: wait for the next hand")
            event = event if event is not None else parse_event(record)
            try:
                notifications = game.push(event)
            except IllegalEvent as error:
                raise Refused("illegal", str(error), error.refusal.data()) from None
            try:
                await asyncio.shield(self._append(no, stored))
            except StoreError as error:
                game.pop()
                if isinstance(error, StoreConflict):
                    await self._lost_race()
                raise
            self._played(event, notifications, by)
            self._moved_at = stored["at"]
        await self._committed()

    async def _committed(self) -> None:
        """After an event is committed and applied (lock held): the table's end, then the updates."""
        if self.match_over:
            # Only hides the table from the next start-up; a rebuild would find the match over anyway.
            await asyncio.shield(self._store.finish(self.id))
        self._announce()

    async def commit_rematch(
        self, seat: int, new_id: str, config: TableConfig, creator: str, limit: int, created: float
    ) -> bool:
        """Make the rematch's new table ``new_id`` and commit this table's link to it (the ``rematch`` event, asked for
        by ``seat``) in one transaction (lock held, the match over, no link yet). Whether the table was made (not:
        ``creator`` has ``limit`` tables open). :class:`Refused` ``stale`` if another process committed an event
        here first, a rematch made at once there above all: this table has caught up with it (see
        :meth:`_lost_race`), and the caller decides again, on the new truth."""
        stored = {"type": "rematch", "table": new_id, "seat": seat, "by": "player", "at": created}
        linked = (self.id, self.event_no + 1, stored)
        try:
            made = await asyncio.shield(
                self._store.create_table(new_id, config.stored(), creator, limit, created=created, with_event=linked)
            )
        except StoreConflict:
            await self._lost_race()  # which refuses as stale
            raise
        if made:
            metrics.EVENTS.labels("player").inc()
            self.apply(stored)
            self._announce()
        return made

    def _append(self, no: int, stored: Record) -> asyncio.Future[None]:
        """Queue event ``no``'s commit; the future is done once it is committed (counted in the metrics then)."""
        started = time.perf_counter()

        def counted(done: asyncio.Future[None]) -> None:
            if not done.cancelled() and done.exception() is None:
                metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
                metrics.EVENTS.labels(stored["by"]).inc()

        committed = self._store.append(self.id, no, stored)
        committed.add_done_callback(counted)
        return committed

    async def _lost_race(self) -> None:
        """Another process committed this event number first: catch up with it, refuse as ``stale``."""
        seen = self.event_no
        await self._catch_up()
        raise Refused(
            "stale",
            f"another move was made first (the table went from event {seen} to {self.event_no}); nothing was done",
        )

    def absorb_soon(self, no: int | None, record: Record | None) -> None:
        """Another process committed event ``no`` (``record``, if the notice carried it; ``no`` None: maybe some,
        read them): apply and announce what this table missed."""
        if no is None:
            self._must_read = True
        elif no > self.event_no:
            self._heard[no] = record
        if not self._absorbing and not self.asleep:
            self._absorbing = True
            self._spawn(self._absorb())

    async def apply_heard(self) -> None:
        """Apply now the events heard of that the task absorbing them has not applied yet (it may not have run)."""
        if any(no > self.event_no for no in self._heard):
            async with self.lock:
                if not self.asleep:  # put to sleep meanwhile: it is read whole when woken
                    await self._catch_up(read=False)

    async def _absorb(self) -> None:
        try:
            async with self.lock:
                self._absorbing = False
                must_read, self._must_read = self._must_read, False
                await self._catch_up(read=must_read)
                heard, self._offer_heard = self._offer_heard, None
                if must_read:  # the notices may have missed an offer too
                    await self.refresh_offer()
                elif heard is not None:
                    if heard.event_no > self.event_no:  # its event not heard of yet: read it
                        await self._catch_up()
                    self._take_offer(heard)
        except StoreError as error:
            self._must_read = True  # read them when the next notice comes
            log.error("table %s: could not read the events committed elsewhere: %s", self.id, error)
        finally:
            self._absorbing = False

    async def _catch_up(self, *, read: bool = True) -> None:
        """Apply and announce the events committed by other processes since :attr:`event_no` (lock held): those
        the notices brought, or (``read``, or when some are missing) those read from the store."""
        heard = {no: record for no, record in self._heard.items() if no > self.event_no}
        self._heard = {}
        missed: list[Record] = []
        while (record := heard.get(self.event_no + 1 + len(missed))) is not None:
            missed.append(record)
        if read or len(missed) < len(heard):
            missed = await self._store.events_after(self.id, self.event_no)
        for record in missed:
            self.apply(record)
            self._announce()

    def _announce(self) -> None:
        """After an event: the clock, the updates to every connection, the server's next move."""
        self._set_clock()
        self.quiet_since = time.monotonic()
        # With several processes, each renders the views of the seats connected to it (a reconnecting client
        # whose seat was not rendered here gets a full resync); alone, every seat's, for exact replays.
        only = {conn.seat for conn in self.connections} if self._store.shared else None
        texts = self.render(resync=False, only=only)
        self._history.append((self.event_no, texts))
        for conn in list(self.connections):
            text = texts.get(conn.seat)
            conn.send(text if text is not None else self.render(resync=False)[conn.seat])
        revoked, self._revoked = self._revoked, []
        for conn, reason in revoked:
            conn.drop(4000, reason)
        self.kick()
        if self.connections:
            self.take_lead(ask=True)  # while the clock runs or a server move is due, led from elsewhere

    def new_hand_record(self) -> Record:
        seed = str(secrets.randbits(128))
        return {"type": "hand_started", "hand": self.hand_no + 1, "dealer": self.match.dealer, "seed": seed}

    # --- resigning and draw offers (rules §3.4) ----------------------------------------------------

    async def resign(self, seat: int) -> None:
        """``seat`` gives the current hand up (lock held); :class:`Refused` if the rules refuse it."""
        resignation = Resign(seat=seat)
        await self.commit(event_dict(resignation), by="player", event=resignation)

    async def answer_draw(self, seat: int, agree: bool) -> None:
        """``seat`` offers or accepts a draw (``agree``), or declines the offer (lock held).

        The computer seats still holding cards answer at once (:func:`rules.players.draws.accepts_draw`);
        once every holder agrees, the hand ends with an ``agree_draw`` event. Otherwise every connection
        hears a ``draw_offered`` message.

        Alone on the store, the offer is :attr:`draw_agreed`, in this process's memory. With a shared store it is
        decided on the offer stored with the table, in a transaction (:meth:`Store.answer_draw
        <rules.server.store.Store.answer_draw>`): answers at once on several processes go one after the other, the
        last agreement commits ``agree_draw`` once (its event number decides, as for any event), and every process
        holding the table hears the offer (:meth:`hear_offer`).
        """
        game = self.game
        if game is None or game.is_over():
            raise Refused("no_game", "no hand is being played")
        refused = game.draw_refusal(seat)
        if refused is not None:
            raise Refused("illegal", refused.message, refused.data())
        if self._store.shared:
            await self._answer_draw_shared(game, seat, agree)
            return
        agreed, declined, everyone = self._draw_decision(game, seat, agree, self.draw_agreed)
        self.draw_agreed = set(agreed)
        if everyone:
            await self.commit({"type": "agree_draw"}, by="player", event=AgreeDraw())
        else:
            self._send_draw_offer(declined=declined)

    def _draw_decision(
        self, game: Game, seat: int, agree: bool, agreed_before: Collection[int]
    ) -> tuple[set[int], int | None, bool]:
        """What ``seat``'s answer makes of the offer ``agreed_before`` (empty: none): the seats that agree now, the seat
        that declined (then nobody agrees), and whether every seat still holding cards agrees."""
        if not agree:
            if not agreed_before:
                raise Refused("no_offer", "there is no draw offer to decline")
            return set(), seat, False
        agreed = set(agreed_before) | {seat}
        for other in game.holders():
            if other not in agreed and self.seats[other].kind == "computer":
                if not accepts_draw(game, other):
                    return set(), other, False
                agreed.add(other)
        return agreed, None, agreed >= set(game.holders())

    async def _answer_draw_shared(self, game: Game, seat: int, agree: bool) -> None:
        at = time.time()
        pushed: list[Notification] | None = None

        def decide(stored: DrawOffer | None) -> DrawAnswer:
            nonlocal pushed
            agreed, declined, everyone = self._draw_decision(game, seat, agree, stored.agreed if stored else ())
            if not everyone:
                return agreed, declined, None
            if pushed is None:
                try:
                    pushed = game.push(AgreeDraw())
                except IllegalEvent as error:
                    raise Refused("illegal", str(error), error.refusal.data()) from None
            return agreed, None, {"type": "agree_draw", "by": "player", "at": at}

        try:
            offer = await asyncio.shield(self._store.answer_draw(self.id, self.event_no, decide))
        except (StoreError, Refused) as error:  # nothing was written
            if pushed is not None:
                game.pop()
            if isinstance(error, StoreConflict):
                await self._lost_race()
            raise
        if offer is None:  # every seat agreed: the hand ended drawn
            assert pushed is not None
            metrics.EVENTS.labels("player").inc()
            self._played(AgreeDraw(), pushed, "player")
            self._moved_at = at
            await self._committed()
            return
        self._take_offer(offer)

    def hear_offer(self, offer: DrawOffer) -> None:
        """(A shared store) another process changed the table's offer: tell the connections here, once the events
        heard before it are applied (an offer of an earlier event is over)."""
        if offer.seq <= self._draw_seq or (self._offer_heard is not None and offer.seq <= self._offer_heard.seq):
            return
        self._offer_heard = offer
        if not self._absorbing and not self.asleep:
            self._absorbing = True
            self._spawn(self._absorb())

    async def refresh_offer(self) -> None:
        """(A shared store; lock held) read the table's offer as stored, and take it up if it is news here (as when it
        is heard of): a process that has just taken the table up, or that may have missed a notice, knows it."""
        if self._store.shared:
            offer = await self._store.draw_offer(self.id)
            if offer is not None:
                self._take_offer(offer)

    def _take_offer(self, offer: DrawOffer) -> None:
        """The stored offer ``offer`` is news here: it is the table's if it belongs to its current event (then every
        connection hears it), else it was over already."""
        if offer.seq <= self._draw_seq:
            return
        self._draw_seq = offer.seq
        if offer.event_no == self.event_no:
            self.draw_agreed = set(offer.agreed)
            self._send_draw_offer(declined=offer.declined)

    def draw_offer_text(self, declined: int | None = None) -> str:
        """The ``draw_offered`` message of the offer as it stands."""
        offer = DrawOffered(
            table_id=self.id, event_no=self.event_no, agreed=sorted(self.draw_agreed), declined=declined
        )
        return offer.model_dump_json()

    def _send_draw_offer(self, declined: int | None) -> None:
        text = self.draw_offer_text(declined)
        for conn in list(self.connections):
            conn.send(text)

    # --- the server's own moves ---------------------------------------------------------------------

    def kick(self) -> None:
        """Make sure the driver runs if the server has something to do (deal, computer move, first hand)."""
        if self._driving or self._server_work() is None:
            return
        if not self._store.leads(self.id):
            self._claim_soon()
            return
        self._driving = True
        self._spawn(self._drive())

    def _claim_soon(self) -> None:
        """Try to take the lead until this table no longer needs one here or it is taken (see the module doc)."""
        if not self._claiming and not self.asleep:
            self._claiming = True
            self._spawn(self._claim())

    async def _claim(self) -> None:
        try:
            # Only while something is due: a move of the server's, or a clock past its deadline (a clock still
            # running restarts this when it runs out, so a healthy lead elsewhere costs no queries meanwhile).
            while self._server_work() is not None or (self.deadline is not None and time.time() >= self.deadline):
                if await self._store.claim_lead(self.id):
                    self._claiming = False
                    self._leading()
                    return
                await asyncio.sleep(LEAD_RETRY)
        finally:
            self._claiming = False

    def _leading(self) -> None:
        """The lead came here: make what is due."""
        log.info("table %s: this process leads it now", self.id)
        self.kick()
        if self.deadline is not None and time.time() >= self.deadline:
            self._spawn(self._time_out(self.event_no))

    def take_lead(self, *, ask: bool) -> None:
        """(A shared database; players or spectators connected here) lead this table if it needs a leader (a clock
        runs, or a server move is due) and none leads it; else, if ``ask``, ask its leader to hand the lead over: a
        leader serving none of its players does (see :meth:`~rules.server.hub.Hub.hand_over`). Asked on a hello
        and after each event, at most every :data:`ASK_SECONDS` (each time a query, and a notice if it is led)."""
        if self.asleep or self.resting() or self._store.leads(self.id):
            return
        if ask:
            if self._asking or time.monotonic() < self._asked_at + ASK_SECONDS:
                return
            self._asking, self._asked_at = True, time.monotonic()
        # Not asking (the lead was freed): at once, even while an ask is under way (it may be what freed it).
        self._spawn(self._take_lead(ask))

    async def _take_lead(self, ask: bool) -> None:
        try:
            if await self._store.claim_lead(self.id):
                self._leading()
            elif ask:
                await self._store.ask_lead(self.id)
        finally:
            if ask:
                self._asking = False

    def _server_work(self) -> str | None:
        if self.match_over:
            return None
        if self.hand_no == 0:
            return "first_hand" if all(state.kind != "free" for state in self.seats) else None
        game = self.game
        if game is None or game.is_over():
            return None
        if game.phase == "deal":
            return "deal"
        seat = game.to_act
        if seat is not None and self.seats[seat].kind == "computer":
            return "computer"
        return None

    async def _drive(self) -> None:
        try:
            while True:
                try:
                    if not await self._drive_once():
                        return
                except Refused as refused:  # another process moved first (it has the table's news now)
                    if refused.code != "stale":
                        raise
        except StoreError as error:
            # The database refuses writes: try again in a while (it may be restarting); any accepted event
            # drives the table again sooner.
            log.error("table %s: the server's own move could not be stored: %s", self.id, error)
            self._driving = False
            self._retry = asyncio.get_running_loop().call_later(LEAD_RETRY, self.kick)
        except BaseException:
            self._driving = False
            raise

    async def _drive_once(self) -> bool:
        """Make the server's next move here, if it has one; whether to go on."""
        async with self.lock:
            work = self._server_work()
            if work is None or not self._store.leads(self.id):
                self._driving = False
                if work is not None:
                    self._claim_soon()
                return False
            if work == "first_hand":
                await self.commit(self.new_hand_record(), by="server")
                return True
            game = self.game
            assert game is not None
            if work == "deal":
                deal = game.sample_deal()
                await self.commit(event_dict(deal), by="server", event=deal)
                return True
            seat = game.to_act
            assert seat is not None
            view, counts, seen = game.view(seat), dict(game.position_counts()), self.event_no  # to a worker process
            state = self.seats[seat]
        if self._settings.computer_delay:
            await asyncio.sleep(self._settings.computer_delay)
        try:
            move = await self._bots.choose(state.level or "easy", state.seed, view, counts)
        except Exception:
            log.exception(
                "table %s: the %s player of seat %d failed; it plays a random move", self.id, state.level, seat
            )
            move = random.choice(view.legal_moves)
        async with self.lock:
            if self.event_no == seen:
                try:
                    await self.commit(event_dict(move), by="computer", event=move)
                except Refused as refused:
                    if refused.code == "stale":
                        raise
                    log.error("table %s: seat %d's bot chose an illegal move (%s)", self.id, seat, refused)
                    move = random.choice(view.legal_moves)
                    await self.commit(event_dict(move), by="computer", event=move)
        return True

    def _set_clock(self) -> None:
        """After an event: a full clock for a move that has just become due. A seat taken or freed while a move
        is due leaves its deadline as it was: the clock gives seconds per move (docs/protocol.md)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        previous, deadline = self._due, self.deadline
        self._due = self.deadline = None
        game = self.game
        if self.config.clock is None or game is None or game.is_over():
            return
        seat = game.to_act
        if seat is None or self.seats[seat].kind == "computer":
            return
        due = (game, len(game.events))
        same_move = previous is not None and previous[0] is game and previous[1] == due[1]
        if deadline is None or not same_move:
            deadline = (time.time() if self._moved_at is None else self._moved_at) + self.config.clock
        self._due, self.deadline = due, deadline
        seen = self.event_no
        self._timer = asyncio.get_running_loop().call_later(
            max(0.0, deadline - time.time()), lambda: self._spawn(self._time_out(seen))
        )

    async def _time_out(self, seen: int) -> None:
        if not self._store.leads(self.id):
            self._claim_soon()  # which plays this timeout if the lead comes here
            return
        try:
            async with self.lock:
                game = self.game
                if self.event_no != seen or game is None or game.to_act is None:
                    return
                move = make_player("easy", secrets.randbits(32)).choose(game.view(game.to_act))
                await self.commit(event_dict(move), by="clock", event=move)
        except Refused:
            pass  # another process moved first: the clock restarted with that move
        except StoreError as error:
            log.error("table %s: the clock's move could not be stored: %s", self.id, error)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def restart_clock(self) -> None:
        """After a rebuild: the clock of the seat to act runs on from when its move became due (as stored)."""
        self._set_clock()

    def stop(self) -> None:
        for timer in (self._timer, self._retry):
            if timer is not None:
                timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for conn in list(self.connections):
            conn.drop(1001, "the server is shutting down")


def event_part(record: Record) -> dict[str, Any]:
    """A stored game event without who made it (``by``): what :func:`~rules.events.parse_event` reads."""
    return {key: value for key, value in record.items() if key != "by"}


__all__ = [
    "NEWS",
    "TABLE_EVENTS",
    "Connection",
    "Refused",
    "SeatState",
    "Table",
    "TableConfig",
    "event_part",
    "hold_clock",
    "hold_lasts",
    "lapse_holds",
    "new_token",
    "possible_table_id",
    "rematch_token",
    "token_hash",
]
