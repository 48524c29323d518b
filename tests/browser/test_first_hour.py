"""What a new player meets at the table page: the end of a won hand at 1280×800 (every button can be
clicked, the analysis board of that hand one click away), the last actions in the page's language after
a switch and a reload, the T and N keys on a Cyrillic layout, the duel's tracker of the opponent's
cards, and in the lobby the invitation, the rules and the board, with the site name whole at 320 px.

The won hand is played over the WebSocket by the test (``won_hand``), not clicked through: the page
opens with that seat's token, as after a reload, and shows the end of the hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import Person, Server, finished_duel, screenshot, sit_at, won_hand
from playwright.sync_api import Browser, FloatRect, Page, expect
from test_languages import LANGUAGES, catalog

DESKTOP = {"width": 1280, "height": 800}

# Whether the element's middle, once scrolled to, is the element itself (nothing lies on it).
_UNCOVERED = """(selector) => {
  const node = document.querySelector(selector);
  node.scrollIntoView({ block: 'center' });
  const box = node.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return Boolean(hit) && (hit === node || node.contains(hit));
}"""


@pytest.fixture(scope="module")
def won(server: Server) -> tuple[str, str, dict[str, Any]]:
    # A won hand at whose end the computer holds cards it picked up: the page shows them as chips.
    return won_hand(server.url, showing=lambda update: bool(update["view"]["known"][1]))


def overlap(a: FloatRect | None, b: FloatRect | None) -> bool:
    assert a is not None and b is not None
    across = a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
    return across and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def label(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[1]]


@pytest.mark.parametrize("lang", ["en", "ky"])
def test_the_end_of_a_won_hand_can_be_clicked_and_leads_to_the_board(
    server: Server, browser: Browser, won: tuple[str, str, dict[str, Any]], lang: str
) -> None:
    table_id, token, update = won
    words = catalog(lang)
    context = browser.new_context(viewport=DESKTOP, locale=lang, reduced_motion="reduce")
    page = context.new_page()
    sit_at(page, server.url, table_id, token)
    dialog = page.locator(".outcome-dialog")
    expect(dialog.locator("#outcome-title")).to_have_text(words["outcome.you_won"])
    expect(page.locator("h1")).to_have_text(words["table.label"].replace("{table}", table_id))
    assert update["view"]["known"][1], "the computer's picked-up cards are shown as chips above the panel"
    for selector in (".next-hand", ".outcome-dialog a[download]", ".review-link"):
        assert page.evaluate(_UNCOVERED, selector), f"{selector} is covered at 1280×800 in {lang}"
    for row in (".opponents", ".me"):
        assert not overlap(dialog.bounding_box(), page.locator(row).bounding_box()), f"{row} lies on the panel"
    screenshot(page, f"won-hand-{lang}")
    with context.expect_page() as opened:
        page.click(".review-link")
    board = opened.value
    board.wait_for_selector(".replay-layout")
    # The board calls the players by name, counting seats from 0 as the logs do where there is none.
    names = board.locator(".replay-seat strong").all_inner_texts()
    assert names == [words["seat.n"].replace("{n}", "0"), words["seat.computer"]]
    expect(board.locator(".graph-axis .axis-bottom")).to_have_text(
        words["replay.axis_wins"].replace("{seat}", words["seat.computer"])
    )
    expect(board.locator(".graph-legend li")).to_have_count(3)
    screenshot(board, f"won-hand-board-{lang}")
    board.keyboard.press("End")
    expect(board.locator(".play-on")).to_be_disabled()  # nobody is to act at the end of the game
    board.keyboard.press("Home")
    expect(board.locator(".play-on")).to_be_enabled()
    context.close()


def test_the_last_actions_are_redrawn_in_the_language_chosen(
    server: Server, browser: Browser, won: tuple[str, str, dict[str, Any]]
) -> None:
    table_id, token, _ = won
    context = browser.new_context(viewport=DESKTOP, locale="en", reduced_motion="reduce")
    page = context.new_page()
    sit_at(page, server.url, table_id, token)
    expect(page.locator(".history li").first).to_have_text(catalog("en")["table.at_table"])
    english = page.locator(".history li").all_inner_texts()
    page.select_option("#language", "fi")
    expect(page.locator(".history li").first).to_have_text(catalog("fi")["table.at_table"])
    finnish = page.locator(".history li").all_inner_texts()
    assert len(finnish) == len(english) and not set(finnish) & set(english), (english, finnish)
    context.close()


def test_t_and_n_work_on_a_cyrillic_layout_and_the_duel_tracker_shows_the_opponents_hand(
    server: Server, browser: Browser
) -> None:
    table_id, token, update = won_hand(server.url)  # a table of its own: this test plays on
    context = browser.new_context(viewport=DESKTOP, locale="ru", reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('trumps:auto-take', 'off')")
    page = context.new_page()
    sit_at(page, server.url, table_id, token)
    expect(page.locator(".outcome-dialog")).to_be_visible()
    press(page, "т", "KeyN")  # N on a Russian layout
    expect(page.locator(".table-view")).to_have_attribute("data-hand", str(update["hand_end"]["hand"] + 1))
    me = Person(page)
    for _ in range(200):
        if page.locator(".take-btn").count() and me.situation() == "move":
            break
        if not me.act():
            page.wait_for_timeout(30)
    else:
        raise AssertionError("no chance to take came")
    # The tracker: the opponent holds exactly the cards neither in my hand nor in the pile.
    chips = page.locator(".opponents .tracker .chip").all_inner_texts()
    count = int(page.inner_text(".opponents .back-fan .count"))
    assert len(chips) == count and not set(chips) & {label(code) for code in me.hand()}
    # My trump is marked by its suit, not by a letter that reads as an ace or a king.
    trump = page.locator(".hand .card.trump .trump-mark").first
    assert trump.inner_text() in "♠♥♦♣"
    before = len(me.hand())
    press(page, "е", "KeyT")  # T on a Russian layout
    page.wait_for_function("(n) => document.querySelectorAll('.hand .card').length > n", arg=before)
    page.click(".tracker-option")
    expect(page.locator(".opponents .tracker")).to_have_count(0)
    page.reload()
    page.wait_for_selector(".table-view")
    expect(page.locator(".tracker-option")).not_to_be_checked()
    expect(page.locator(".opponents .tracker")).to_have_count(0)
    context.close()


def test_a_rematch_after_the_match_keeps_its_rules_and_opponent(server: Server, browser: Browser) -> None:
    table_id, token, update = won_hand(server.url, match_hands=1)
    assert update["score"]["match_over"]
    page = browser.new_page(viewport=DESKTOP)
    sit_at(page, server.url, table_id, token)
    page.click(".rematch")
    page.wait_for_function("(old) => new URLSearchParams(location.search).get('table') !== old", arg=table_id)
    expect(page.locator(".trump-dialog")).to_be_visible()  # you sit at the new table, to choose first
    new_id = page.evaluate("new URLSearchParams(location.search).get('table')")
    info = page.evaluate("(id) => fetch(`/api/tables/${id}`).then((r) => r.json())", new_id)
    assert info["rules"] == {"pass_sixes": True, "must_beat": True} and info["match_hands"] == 1
    assert [(seat["kind"], seat.get("level")) for seat in info["seats"]] == [("human", None), ("computer", "easy")]
    page.close()


def test_a_player_who_comes_to_the_rematch_by_its_link_takes_the_seat_kept_for_them(
    server: Server, browser: Browser
) -> None:
    """Bo opens the rematch's table from a link (not from the finished table's dialog): it names the table it follows
    (rematch_of), his browser still holds his token there, so the page offers him his kept seat, and takes it."""
    table_id, tokens = finished_duel(server.url)
    ana, bo = (browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page() for _ in tokens)
    sit_at(ana, server.url, table_id, tokens[0], 0)
    ana.click(".rematch")
    ana.wait_for_function("(old) => new URLSearchParams(location.search).get('table') !== old", arg=table_id)
    new_id = ana.evaluate("new URLSearchParams(location.search).get('table')")
    sit_at(bo, server.url, table_id, tokens[1], 1)
    bo.goto(f"{server.url}/?table={new_id}")
    expect(bo.locator(".held-seat")).to_contain_text("Seat 1 is kept for its player of the last match until ")
    kept = bo.locator(".take-kept-seat")
    expect(kept).to_have_text(catalog("en")["wait.take_kept"].replace("{n}", "1"))
    kept.click()
    for seat, page in enumerate((ana, bo)):  # every seat is taken: the first hand starts, seat 0 chooses first
        expect(page.locator(".trump-dialog")).to_be_visible()
        expect(page.locator(".table-view")).to_have_attribute("data-seat", str(seat))
    saved = bo.evaluate("(id) => JSON.parse(localStorage.getItem(`trumps.seat.${id}`))", new_id)
    assert saved["seat"] == 1 and saved["token"] != tokens[1]  # his token there, derived from the old one
    ana.context.close()
    bo.context.close()


def test_both_players_of_a_finished_match_meet_at_one_rematch(server: Server, browser: Browser) -> None:
    """Ana presses Rematch; Bo's page, at the same finished table, offers to join it with the keyboard's focus still
    on the dialog's button, and Enter takes him to the same new table, in his seat (docs/protocol.md, *A rematch*)."""
    table_id, tokens = finished_duel(server.url)
    words = catalog("en")
    contexts = [browser.new_context(viewport=DESKTOP, reduced_motion="reduce") for _ in tokens]
    errors: list[str] = []
    ana, bo = (context.new_page() for context in contexts)
    for seat, page in enumerate((ana, bo)):
        page.on("pageerror", lambda error: errors.append(str(error)))
        sit_at(page, server.url, table_id, tokens[seat], seat)
        expect(page.locator(".rematch")).to_have_text(words["outcome.rematch"])
    bo.focus(".rematch")
    ana.click(".rematch")
    ana.wait_for_function("(old) => new URLSearchParams(location.search).get('table') !== old", arg=table_id)
    new_id = ana.evaluate("new URLSearchParams(location.search).get('table')")
    expect(bo.locator(".rematch")).to_have_text(words["outcome.join_rematch"])
    expect(bo.locator(".rematch-ready")).to_have_text(words["outcome.rematch_ready"])
    assert bo.evaluate("document.activeElement.classList.contains('rematch')"), "the focus left the dialog's button"
    # Bo's seat there is kept for him: a stranger's lobby lists the table without a Join button, and its page offers
    # no seat to take, saying until when it is kept.
    stranger = browser.new_context(viewport=DESKTOP)
    lobby = stranger.new_page()
    lobby.on("pageerror", lambda error: errors.append(str(error)))
    lobby.goto(server.url)
    listed = lobby.locator(f'.table-item[data-table="{new_id}"]')
    expect(listed).to_contain_text("seat kept for its player of the last match until ")
    expect(listed.locator(".watch")).to_be_visible()
    expect(listed.locator(".join")).to_have_count(0)
    listed.locator(".watch").click()
    expect(lobby.locator(".held-seat")).to_contain_text("Seat 1 is kept for its player of the last match until ")
    expect(lobby.locator(".take-seat")).to_have_count(0)
    expect(lobby.locator(".take-kept-seat")).to_have_count(0)  # the kept seat is offered only to its player
    # A spectator of the finished table is told the rematch's table is ready, and given the way there to watch it.
    lobby.goto(f"{server.url}/?table={table_id}")
    expect(lobby.locator(".rematch-ready")).to_have_text(words["outcome.rematch_ready"])
    expect(lobby.locator(".rematch")).to_have_count(0)
    lobby.click(".watch-rematch")
    expect(lobby.locator(".held-seat")).to_be_visible()
    assert lobby.evaluate("new URLSearchParams(location.search).get('table')") == new_id
    stranger.close()
    bo.keyboard.press("Enter")
    bo.wait_for_function("(id) => new URLSearchParams(location.search).get('table') === id", arg=new_id)
    for seat, page in enumerate((ana, bo)):  # every seat is taken: the first hand starts, seat 0 chooses first
        expect(page.locator(".trump-dialog")).to_be_visible()
        expect(page.locator(".table-view")).to_have_attribute("data-seat", str(seat))
    info = ana.evaluate("(id) => fetch(`/api/tables/${id}`).then((r) => r.json())", new_id)
    assert [(seat["kind"], seat["name"]) for seat in info["seats"]] == [("human", "Ana"), ("human", "Bo")]
    assert info["match_hands"] == 1
    for context in contexts:
        context.close()
    assert errors == [], f"script errors on the pages: {errors}"


def test_a_finished_table_whose_player_left_offers_no_seat(server: Server, page: Page) -> None:
    """Bo leaves the table once the match is over: his seat stays free for good, as nobody can join a finished match
    (docs/protocol.md, *Leaving a seat*). A visitor's page offers no seat to sit in, nor a link to invite a friend."""
    table_id, tokens = finished_duel(server.url)
    page.request.post(f"{server.url}/api/tables/{table_id}/leave", data={"token": tokens[1]})
    page.goto(f"{server.url}/?table={table_id}")
    words = catalog("en")
    expect(page.locator(".outcome-dialog .match-over")).to_be_visible()
    expect(page.locator('.seat-box[data-seat="1"] .status')).to_have_text(words["status.free"])
    expect(page.locator(".me-bar.watching")).to_have_text(words["table.watching_table"])
    expect(page.locator(".take-seat")).to_have_count(0)
    expect(page.locator(".share h2")).to_have_text(words["side.watch_link"])


def press(page: Page, key: str, code: str) -> None:
    """A key as a non-Latin layout sends it: its own letter, the position of the Latin one."""
    page.evaluate(
        "([key, code]) => document.dispatchEvent(new KeyboardEvent('keydown', { key, code, bubbles: true }))",
        [key, code],
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_shows_the_rules_first_and_links_the_board_and_the_name_fits_at_320(
    server: Server, browser: Browser, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 640}, locale=lang, reduced_motion="reduce")
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector(".how-to")
    brand = page.eval_on_selector(
        ".brand span", "node => [node.scrollWidth - node.clientWidth, node.getBoundingClientRect().right]"
    )
    picker = page.locator("#language").bounding_box()
    assert picker is not None
    assert brand[0] <= 0 and brand[1] <= picker["x"], f"the site name is cut at 320 px in {lang}"
    expect(page.locator(".board-link")).to_have_attribute("href", "/replay")
    how = page.locator(".how-to").bounding_box()
    create = page.locator(".create").bounding_box()
    assert how is not None and create is not None and how["y"] < create["y"]
    if lang == "en":
        screenshot(page, "lobby-320-en")
    if lang == LANGUAGES[-1]:
        page.click(".invite-btn")
        expect(page.locator(".waiting-dialog .share-link")).to_be_visible()
        expect(page.locator(".table-view")).to_have_attribute("data-seat", "0")
    context.close()
