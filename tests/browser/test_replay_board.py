"""The analysis board (/replay) in Debian's Chromium: logs opened and stepped through, checked against the CLI."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, create_table, play_until_over, screenshot, won_hand
from playwright.sync_api import Browser, Page, expect

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
DUEL = VECTORS / "full_game_duel.jsonl"
FOUR = VECTORS / "full_game_four_players.jsonl"

# What the board shows, read back from the page: each seat's hand, the pile, whose turn.
_BOARD = """() => {
  const board = document.querySelector('.board');
  const seats = [...board.querySelectorAll('.replay-seat')].sort((a, b) => a.dataset.seat - b.dataset.seat);
  return {
    phase: board.dataset.phase,
    to_act: board.dataset.toAct === '' ? null : Number(board.dataset.toAct),
    hands: seats.map((seat) => [...seat.querySelectorAll('.card')].map((card) => card.dataset.card)),
    pile: [...board.querySelectorAll('.open-pile .card')].map((card) => card.dataset.card),
  };
}"""


def _cli_state(text: str, ply: int) -> dict[str, Any]:
    """``trumps replay --json`` of the log cut after ``ply`` events."""
    lines = "".join(line + "\n" for line in text.splitlines()[: ply + 1])
    command = [sys.executable, "-c", "from rules.cli import main; main()", "replay", "-", "--json"]
    done = subprocess.run(command, input=lines.encode(), capture_output=True, check=True)
    state: dict[str, Any] = json.loads(done.stdout)
    return state


def _shown_ply(page: Page) -> int:
    return int(page.locator(".replay-layout").get_attribute("data-ply") or "-1")


def _check_board(page: Page, text: str, ply: int) -> None:
    expect(page.locator(".replay-layout")).to_have_attribute("data-ply", str(ply))
    state = _cli_state(text, ply)
    shown = page.evaluate(_BOARD)
    assert shown["phase"] == state["phase"]
    assert shown["to_act"] == state["to_act"]
    assert shown["hands"] == state["hands"]
    assert shown["pile"] == state["pile"]
    current = page.locator(".move-list li.current")
    if ply == 0:
        assert current.count() == 0
    else:
        expect(current).to_have_attribute("data-ply", str(ply))


def test_a_pasted_log_is_stepped_through_to_the_end_and_back(server: Server, page: Page) -> None:
    text = DUEL.read_text()
    plies = len(text.splitlines()) - 1
    page.goto(f"{server.url}/replay")
    page.fill("textarea.paste", text)
    page.click(".open-pasted")
    # A log opens at its end.
    _check_board(page, text, plies)
    page.keyboard.press("Home")
    _check_board(page, text, 0)
    for ply in range(1, 12):
        page.keyboard.press("ArrowRight")
        if ply in (1, 3, 4, 11):
            _check_board(page, text, ply)
    page.keyboard.press("End")
    _check_board(page, text, plies)
    expect(page.locator(".narration")).to_contain_text("lost the hand")
    for ply in range(plies - 1, plies - 6, -1):
        page.keyboard.press("ArrowLeft")
        _check_board(page, text, ply)
    # The slider and the move list go straight to a position; the address remembers it.
    page.locator(".ply-slider").fill("40")
    _check_board(page, text, 40)
    assert page.evaluate("location.hash") == "#ply=40"
    page.click('.move-list li[data-ply="25"] a')
    _check_board(page, text, 25)
    # Each position gets an evaluation: here an estimate, labelled with its number of playouts.
    expect(page.locator(".evaluation")).to_have_attribute("data-kind", "estimate", timeout=30_000)
    expect(page.locator(".evaluation .headline")).to_contain_text("playouts")
    screenshot(page, "replay-board-desktop")


def test_a_file_opens_by_picker_and_by_drop_and_a_link_opens_a_position(server: Server, page: Page) -> None:
    text = FOUR.read_text()
    page.goto(f"{server.url}/replay")
    page.set_input_files(".file-input", str(FOUR))
    _check_board(page, text, len(text.splitlines()) - 1)
    page.click(".another")
    page.evaluate(
        """(text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], 'game.jsonl', {type: 'application/x-ndjson'}));
          const drop = new DragEvent('drop', {dataTransfer: data, bubbles: true});
          document.querySelector('.drop-zone').dispatchEvent(drop);
        }""",
        DUEL.read_text(),
    )
    _check_board(page, DUEL.read_text(), len(DUEL.read_text().splitlines()) - 1)
    # A link to a position: the page keeps the opened log, and the address says which ply.
    page.goto(f"{server.url}/replay#ply=57")
    _check_board(page, DUEL.read_text(), 57)


def _packed(text: str) -> str:
    """A log as a link carries it: raw deflate, then base64url without padding."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = deflate.compress(text.encode()) + deflate.flush()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def test_a_link_to_a_position_of_a_pasted_log_opens_in_another_browser(server: Server, browser: Browser) -> None:
    text = DUEL.read_text()
    first = browser.new_context()
    try:
        page = first.new_page()
        page.goto(f"{server.url}/replay")
        page.fill("textarea.paste", text)
        page.click(".open-pasted")
        page.goto(f"{server.url}/replay#ply=23")
        _check_board(page, text, 23)
        page.click(".copy-link")  # copied where the clipboard may be written, and put in the address bar
        page.wait_for_url("**#log=*")
        link = page.url
    finally:
        first.close()
    assert "#log=" in link and link.endswith("&ply=23")
    # A fresh browser has no copy of the log: the link alone brings it, for the page's link and one made by hand.
    for address in (link, f"{server.url}/replay#log={_packed(text)}&ply=57"):
        other = browser.new_context()
        try:
            page = other.new_page()
            page.goto(address)
            _check_board(page, text, int(address.rsplit("=", 1)[1]))
        finally:
            other.close()


def test_a_bad_log_is_refused_in_one_line(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/replay")
    lines = DUEL.read_text().splitlines()
    page.fill("textarea.paste", "\n".join([*lines[:5], lines[7]]))
    page.click(".open-pasted")
    expect(page.locator(".opener .problem")).to_contain_text("cannot be replayed: line 6:")
    # In another language the page says it in its own words, the line's number with them.
    page.evaluate("localStorage.setItem('trumps.lang', 'fi')")
    page.reload()
    page.fill("textarea.paste", "\n".join([*lines[:5], lines[7]]))
    page.click(".open-pasted")
    expect(page.locator(".opener .problem")).to_contain_text("Rivi 6 ei noudata lokin muotoa")
    # A log over the board's 512 KB is said to be too large, not "a message too long for the server".
    page.fill("textarea.paste", "\n".join([*lines, " " * (600 * 1024)]))
    page.click(".open-pasted")
    expect(page.locator(".opener .problem")).to_contain_text("Loki on liian suuri analysoitavaksi")


def test_play_on_from_a_position_against_the_computer(server: Server, page: Page) -> None:
    text = DUEL.read_text()
    page.goto(f"{server.url}/replay")
    page.fill("textarea.paste", text)
    page.click(".open-pasted")
    page.locator(".ply-slider").fill("30")
    _check_board(page, text, 30)
    page.click(".play-on")
    expect(page.locator(".play-on-box")).to_contain_text("against the computer")
    me = page.evaluate(_BOARD)["to_act"]
    # I play my first legal move whenever it is my turn, until the computer (the other seat) has answered.
    for _ in range(12):
        ply = _shown_ply(page)
        if page.evaluate(_BOARD)["to_act"] != me:
            break
        expect(page.locator(".open-hand .card.playable, .take-btn").first).to_be_visible()
        page.locator(".open-hand .card.playable, .take-btn").first.click()
        page.wait_for_function(f"Number(document.querySelector('.replay-layout').dataset.ply) > {ply}")
        page.wait_for_function("!document.querySelector('.play-on-box').dataset.thinking", timeout=30_000)
        answered = page.eval_on_selector_all(".move-list li", "items => items.map(i => Number(i.dataset.ply))")
        if page.evaluate(_BOARD)["to_act"] == me and _shown_ply(page) > ply + 1:
            break
    assert _shown_ply(page) > 31 and answered[-1] == _shown_ply(page)
    assert page.locator(".move-list li").count() == _shown_ply(page)
    page.click(".play-on")  # back to the game as it was played
    _check_board(page, text, 30)


def test_a_finished_hand_of_an_online_table_opens_on_the_board(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        create_table(page, server.url, name="Ida", opponent="easy")
        play_until_over([Person(page)], timeout=120)
        review = page.locator(".outcome-dialog .review-link")
        expect(review).to_be_visible()
        with context.expect_page() as opened:
            review.click()
        board = opened.value
        board.wait_for_selector(".board")
        downloaded = page.evaluate(
            "async () => await (await fetch(document.querySelector('.outcome-dialog a[download]').href)).text()"
        )
        plies = len(downloaded.splitlines()) - 1
        _check_board(board, downloaded, plies)
        expect(board.locator(".evaluation")).to_have_attribute("data-kind", "over", timeout=30_000)
        board.keyboard.press("Home")
        _check_board(board, downloaded, 0)
        screenshot(board, "replay-board-review")
        # The table's next hand has not been played (nobody asked for it): the board says so.
        expect(board.locator(".table-hands")).to_contain_text("Hand 1 of table")
        board.click(".table-hands a:has-text('Next hand')")
        expect(board.locator(".opener .problem")).to_contain_text("this table has no hand 2")
    finally:
        context.close()


def test_the_last_hand_of_a_match_that_is_over_offers_no_next_hand(server: Server, browser: Browser) -> None:
    table_id, _, _ = won_hand(server.url, match_hands=1)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/replay?table={table_id}&hand=1")
        page.wait_for_selector(".board")
        expect(page.locator(".table-hands")).to_contain_text("Hand 1 of table")
        expect(page.locator(".table-hands a")).to_have_count(0)  # no hand before it, and none after the match
    finally:
        context.close()


def test_the_log_picker_is_reached_and_seen_by_keyboard(server: Server, browser: Browser) -> None:
    """Tab reaches the file picker (the drop zone is no tab stop that does nothing), and its button shows the focus.
    (What Enter or Space then opens is the browser's own file dialog.)"""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/replay")
        page.wait_for_selector(".drop-zone")
        stops: list[list[str]] = []
        while not stops or stops[-1][1] != "file":
            assert len(stops) < 30, stops
            page.keyboard.press("Tab")
            stops.append(page.evaluate("() => [document.activeElement.className, document.activeElement.type ?? '']"))
        assert not any("drop-zone" in name for name, _ in stops), stops
        outline = page.evaluate("() => getComputedStyle(document.activeElement.closest('label')).outlineStyle")
        assert outline != "none"
    finally:
        context.close()
