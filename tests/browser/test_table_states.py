"""States of the table page against a scripted table: a draw offer (docs/protocol.md, *Resigning and draw offers*),
a seat left free in the middle of a hand.

The messages are those the protocol describes, sent by the test through Playwright's WebSocket routing: the
states that are hard to deal at a real table (your only move is to take while an offer stands) come at once,
and the page's clock is Playwright's, moved forward by the test, so waiting out the page's pauses takes no time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import Server
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from test_languages import catalog

TABLE = "scripted"
SEATS = [
    {"seat": 0, "kind": "human", "name": "Ana", "level": None, "connected": True, "left": False},
    {"seat": 1, "kind": "human", "name": "Bo", "level": None, "connected": True, "left": False},
]
WORDS = catalog("en")
# The page writes a person's name isolated from the sentence around it (FSI ... PDI, docs/protocol.md, *Names*).
ANA, BO = "\u2068Ana\u2069", "\u2068Bo\u2069"


def _update(seat: int | None) -> dict[str, Any]:
    """Bo (seat 1) has led A♠, seat 0's own trump: Ana cannot beat it, and her only move is to take it."""
    mine = seat == 0
    view = {
        "seat": seat,
        "players": 2,
        "phase": "respond",
        "to_act": 0,
        "trumps": ["S", "H"],
        "hand": [*(f"{rank}{suit}" for suit in "HD" for rank in "6789TJQKA")][:17] if mine else [],
        "hand_counts": [17, 18],
        "known": [[], []],
        "pile": ["AS"],
        "out_of_play": [],
        "out_order": [],
        "legal_moves": [{"type": "take", "seat": 0, "count": 1}] if mine else [],
        "outcome": None,
    }
    score = {"hand": 1, "dealer": 0, "hands_lost": [0, 0], "draws": 0, "hands_played": 0, "match_hands": None}
    return {
        "type": "update",
        "table_id": TABLE,
        "event_no": 9,
        "resync": True,
        "event": {"type": "lead", "seat": 1, "card": "AS"},
        "by": "player",
        "notifications": [],
        "score": {**score, "match_over": False},
        "seats": SEATS,
        "status": "playing",
        "seed_hash": "0" * 64,
        "deadline": None,
        "hand_end": None,
        "rematch": None,
        "view": view,
    }


class ScriptedTable:
    """The table's side of one page's WebSocket: welcome and the update above (or ``update``), then what the test
    sends."""

    def __init__(self, page: Page, seat: int | None, update: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.update = update or _update(seat)
        self.received: list[dict[str, Any]] = []
        self.socket: WebSocketRoute | None = None
        page.route_web_socket(f"**/ws/tables/{TABLE}", self.connect)

    def connect(self, socket: WebSocketRoute) -> None:
        self.socket = socket
        socket.on_message(self.answer)

    def answer(self, text: str | bytes) -> None:
        message = json.loads(text)
        self.received.append(message)
        if message["type"] == "hello":
            table = {"id": TABLE, "players": 2, "rules": {"pass_sixes": True, "must_beat": False}}
            table |= {"seats": self.update["seats"], "status": "playing", "hand": 1, "event_no": 9, "clock": None}
            table |= {"match_hands": None, "spectators": 1}
            self.send({"type": "welcome", "protocol": 1, "seat": self.seat, "table": table})
            self.send(self.update)

    def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(message))

    def offer(self, agreed: list[int], declined: int | None = None) -> None:
        self.send({"type": "draw_offered", "table_id": TABLE, "event_no": 9, "agreed": agreed, "declined": declined})

    def sent(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.received if message["type"] == kind]


@pytest.fixture
def scripted(browser: Browser, server: Server) -> Iterator[Any]:
    """Open the scripted table's page as ``seat`` (its token saved, as the page saves it) with Playwright's clock."""
    contexts = []
    errors: list[str] = []

    def open_page(seat: int | None, update: dict[str, Any] | None = None) -> tuple[Page, ScriptedTable]:
        # A phone's screen, where the offer's buttons below a hand of 17 cards were out of sight.
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en", reduced_motion="reduce")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.clock.install()
        table = ScriptedTable(page, seat, update)
        if seat is not None:
            saved = json.dumps({"seat": seat, "token": "scripted-token"})
            page.add_init_script(f"localStorage.setItem('trumps.seat.{TABLE}', {json.dumps(saved)})")
        page.goto(f"{server.url}/?table={TABLE}")
        expect(page.locator(".table-view")).to_have_attribute("data-phase", table.update["view"]["phase"])
        return page, table

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"script errors on the pages: {errors}"


def test_taking_by_itself_waits_while_a_draw_is_on_offer(scripted: Any) -> None:
    """Ana's only move is to take, which the page does by itself after a pause; Bo offers a draw meanwhile. The page
    tells her and shows the buttons to answer, below her hand. A take is an event and ends the offer, so the page
    leaves it to her to answer first (by the keyboard here, which keeps its place), and takes once she declined."""
    page, table = scripted(0)
    page.focus(".resign-btn")
    table.offer([1])
    expect(page.locator(".draw-offer")).to_contain_text(WORDS["end.offered"].format(who=BO))
    # The page is drawn anew: the keyboard stays on the button it was on.
    expect(page.locator(".resign-btn")).to_be_focused()
    # Said where she looks, and the buttons to answer brought into sight.
    expect(page.locator(".toast")).to_have_text(WORDS["end.offered"].format(who=BO))
    for button in (".draw-accept", ".draw-decline"):
        expect(page.locator(button)).to_be_in_viewport(ratio=1)
    page.clock.run_for(10_000)  # far past the page's pause before it takes
    expect(page.locator(".table-view")).to_have_attribute("data-my-turn", "yes")
    assert table.sent("move") == [], "the page took while the draw was on offer, which ends the offer"
    page.focus(".draw-decline")
    page.keyboard.press("Enter")
    while not table.sent("draw"):
        page.wait_for_timeout(20)
    assert table.sent("draw")[0]["agree"] is False
    table.offer([], declined=0)
    expect(page.locator(".toast")).to_have_text(WORDS["end.declined.you"])
    expect(page.locator(".draw-btn")).to_be_visible()
    expect(page.locator(".take-btn")).to_be_focused()  # the answered offer's button is gone: the move to make
    page.clock.run_for(10_000)
    expect(page.locator(".table-view")).to_have_attribute("data-my-turn", "no")  # sending the take
    while not table.sent("move"):
        page.wait_for_timeout(20)
    assert table.sent("move")[0]["event"] == {"type": "take", "seat": 0, "count": 1}


def test_a_spectator_hears_of_a_draw_offer(scripted: Any) -> None:
    """Spectators get draw_offered too (and a toast when it is declined): their page says who offers, with no
    button to answer."""
    page, table = scripted(None)
    page.focus(".leave")
    table.offer([1])
    offer = page.locator(".endings-bar .draw-offer")
    expect(offer).to_have_text(WORDS["end.offered"].format(who=BO))
    expect(page.locator(".leave")).to_be_focused()  # the side's controls keep the keyboard through the redraw too
    expect(page.locator(".draw-accept, .draw-decline, .draw-btn, .resign-btn")).to_have_count(0)
    table.offer([], declined=0)
    expect(page.locator(".toast")).to_have_text(WORDS["end.declined"].format(who=ANA))
    expect(offer).to_have_count(0)


def test_a_seat_left_free_mid_hand_is_said_to_wait_for_a_player(scripted: Any) -> None:
    """Bo left in the middle of the hand, with his lead to come (docs/protocol.md, *Leaving a seat*): the game waits
    for someone to take his seat, with a clock at its pace. Ana's page says so, not that seat 1 is to lead, gives
    the link to invite, and shows the free seat's time left."""
    update = _update(0)
    free = {"seat": 1, "kind": "free", "name": None, "level": None, "connected": False, "left": True}
    update["seats"] = [SEATS[0], free]
    update["event"] = {"type": "seat_freed", "seat": 1}
    update["view"] |= {"phase": "lead", "to_act": 1, "pile": [], "legal_moves": [], "hand_counts": [17, 19]}
    update["deadline"] = 4_000_000_000  # a clock: it plays the free seat's move when its time runs out
    page, _ = scripted(0, update)
    expect(page.locator("#prompt")).to_have_text(WORDS["prompt.free_seat"].format(who="Seat 1"))
    expect(page.locator(".share h2")).to_have_text(WORDS["side.invite"])
    status = page.locator('.seat-box[data-seat="1"] .status')
    expect(status).to_contain_text(WORDS["status.free"])
    expect(status.locator(".clock")).to_be_visible()  # counting down to the move the clock will make
    # Before the deal, at the trump's choice, alike.
    update["view"] |= {"phase": "trump_choice", "trumps": ["S", None], "hand": [], "hand_counts": [0, 0]}
    page, _ = scripted(0, update)
    expect(page.locator(".trump-dialog p")).to_have_text(WORDS["prompt.free_seat"].format(who="Seat 1"))


def test_a_rematch_asked_for_is_a_line_of_the_last_actions(scripted: Any) -> None:
    """A ``rematch`` event (docs/protocol.md, *A rematch*) is told in the account of the last actions, as every other
    event a person makes is: who asked, in the reader's words (you, or their name)."""
    for seat, line in ((0, WORDS["event.rematch"].format(who=BO)), (1, WORDS["event.rematch.you"])):
        page, table = scripted(seat)
        table.send(
            _update(seat) | {"event_no": 10, "resync": False, "event": {"type": "rematch", "table": "next", "seat": 1}}
        )
        expect(page.locator(".history li").last).to_have_text(line)
