"""The browser client, driven in Debian's Chromium: people play whole games through the page alone."""

from __future__ import annotations

import re
from pathlib import Path

from browser_helpers import Person, Server, create_table, play_until_over, screenshot
from playwright.sync_api import Browser, Page, expect
from test_languages import catalog

from rules.players import LEVELS

OUTCOMES = {"You won this hand!", "You lost this hand", "Draw"}
MY_TURN = "document.querySelector('.table-view')?.dataset.myTurn === 'yes'"


def test_the_lobby_lists_a_new_table_and_a_stranger_joins_it(server: Server, page: Page, browser: Browser) -> None:
    page.goto(server.url)
    expect(page.locator("h1")).to_have_text("Your trumps")
    screenshot(page, "lobby")
    # The computer's levels offered are the engine's, in its order.
    offered = page.eval_on_selector_all('select[name="seat-1"] option', "options => options.map(o => o.value)")
    assert offered == [*LEVELS, "free"]
    # Seats are numbered from 0 on the page as in the logs and on the analysis board: the other seat of a duel is 1.
    expect(page.locator(".seat-row span")).to_have_text(["Seat 1"])
    table_id = create_table(page, server.url, name="Gus", opponent="free")

    stranger = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        lobby = stranger.new_page()
        lobby.goto(server.url)
        listed = lobby.locator(f'.table-item[data-table="{table_id}"]')
        expect(listed).to_contain_text("Duel · waiting for 1 player")
        # A name is isolated from the text around it (FSI ... PDI), as a right-to-left one would reorder it.
        expect(listed).to_contain_text("\u2068Gus\u2069 · free seat")
        listed.locator(".join").click()
        expect(lobby.locator(".table-view")).to_have_attribute("data-seat", "1")
        assert lobby.evaluate("new URLSearchParams(location.search).get('table')") == table_id
    finally:
        stranger.close()
    # The creator's page sees the table start: the first trump is chosen by the creator.
    expect(page.locator(".trump-dialog")).to_contain_text("Choose your trump suit")


def test_a_name_the_server_refuses_is_said_to_be_the_name(server: Server, page: Page) -> None:
    """A name pasted with a zero-width space is refused (docs/protocol.md, *Names*) with bad_request: the page says
    the name was refused and why names are, not "The server refused the request." (nothing is created)."""
    page.goto(server.url)
    page.fill("#create-name", "A\u200bna")
    page.click(".create-btn")
    expect(page.locator(".toast.error")).to_have_text(catalog("en")["error.bad_name"])
    expect(page.locator(".lobby")).to_be_visible()


def test_the_lobby_links_the_full_rules_and_starts_the_form_from_the_server_s_defaults(
    server: Server, page: Page
) -> None:
    page.goto(server.url)
    expect(page.locator(".board-link")).to_be_visible()
    expect(page.locator(".rules-link")).to_have_count(0)  # this server was given no --rules-url
    # The form starts from the server's defaults for a new table (rules/defaults.py): today's, then others.
    expect(page.locator('input[name="players"][value="2"]')).to_be_checked()
    expect(page.locator('input[name="pass_sixes"]')).to_be_checked()
    expect(page.locator('input[name="must_beat"]')).not_to_be_checked()
    address = "https://rules.example/svoi-kozyri/"
    defaults = {"players": 3, "pass_sixes": False, "must_beat": True}
    config = {"type": "config", "rules_url": address, "defaults": defaults}
    page.route("**/api/config", lambda route: route.fulfill(json=config))
    page.reload()
    expect(page.locator(".rules-link")).to_have_text("Full rules")
    expect(page.locator(".rules-link")).to_have_attribute("href", address)
    expect(page.locator('input[name="players"][value="3"]')).to_be_checked()
    expect(page.locator(".seat-config select")).to_have_count(2)
    expect(page.locator('input[name="pass_sixes"]')).not_to_be_checked()
    expect(page.locator('input[name="must_beat"]')).to_be_checked()


def test_a_wrong_link_says_so_in_plain_words(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/?table=no-such-table")
    expect(page.locator(".missing h2")).to_have_text("No such table")
    expect(page.locator(".missing")).to_contain_text("the link may be wrong")
    page.click(".missing .btn")
    expect(page.locator(".create-btn")).to_be_visible()
    # A link to no page at all (cut short, mistyped) is the page too, saying so, not the protocol's JSON.
    for wrong in ("/replay/", "/tabel?table=abc"):
        response = page.goto(f"{server.url}{wrong}")
        assert response is not None and response.status == 404
        expect(page.locator(".missing h2")).to_have_text("Nothing here")
    page.click(".missing .btn")
    expect(page.locator(".create-btn")).to_be_visible()


def test_a_whole_duel_between_two_browsers(server: Server, browser: Browser) -> None:
    desktop = browser.new_context(viewport={"width": 1280, "height": 860})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", has_touch=True)
    errors: list[str] = []
    try:
        ada_page = desktop.new_page()
        bob_page = phone.new_page()
        for tab in (ada_page, bob_page):
            tab.on("pageerror", lambda error: errors.append(str(error)))

        create_table(ada_page, server.url, name="Ada", opponent="free")
        expect(ada_page.locator(".waiting-dialog")).to_contain_text("Waiting for players")
        link = ada_page.input_value(".waiting-dialog .share-link")
        assert link.startswith(server.url) and "?table=" in link

        # Bob opens the link he was sent and takes the free seat.
        bob_page.goto(link)
        bob_page.fill(".join-name", "Bob")
        expect(bob_page.locator(".take-seat")).to_have_text("Sit in seat 1")  # counted from 0, as in the logs
        bob_page.click(".take-seat")
        expect(bob_page.locator(".table-view")).to_have_attribute("data-seat", "1")
        expect(bob_page.locator(".toast")).to_contain_text("You sat down in seat 1.")
        expect(ada_page.locator('.opponents .seat-box[data-seat="1"] .name')).to_have_text("\u2068Bob\u2069")
        expect(bob_page.locator('.opponents .seat-box[data-seat="0"] .name')).to_have_text("\u2068Ada\u2069")
        expect(ada_page.locator(".table-view")).to_have_attribute("data-phase", "trump_choice")

        # Bob's phone is narrow and dark: the table fits its width, on a dark page.
        assert bob_page.evaluate("document.scrollingElement.scrollWidth") <= 390
        assert bob_page.evaluate("getComputedStyle(document.body).backgroundColor") != ada_page.evaluate(
            "getComputedStyle(document.body).backgroundColor"
        )
        ada, bob = Person(ada_page), Person(bob_page, gesture="keyboard")

        def pictures(move: int) -> None:
            if move == 14:
                screenshot(ada_page, "duel-desktop-mid")
                screenshot(bob_page, "duel-phone-dark-mid")

        moves = play_until_over([ada, bob], after_move=pictures)
        assert bob_page.evaluate("document.scrollingElement.scrollWidth") <= 390
        assert moves > 10 and ada.moves > 3 and bob.moves > 3

        ada_says = ada_page.inner_text("#outcome-title")
        bob_says = bob_page.inner_text("#outcome-title")
        assert {ada_says, bob_says} in ({"You won this hand!", "You lost this hand"}, {"Draw"})
        for tab in (ada_page, bob_page):
            expect(tab.locator(".outcome-dialog .score-table caption")).to_contain_text("1 hand played")
        screenshot(ada_page, "duel-desktop-end")
        screenshot(bob_page, "duel-phone-dark-end")

        # Next hand: both pages go back to the trump choice of hand 2.
        ada_page.click(".next-hand")
        for tab in (ada_page, bob_page):
            expect(tab.locator(".table-view")).to_have_attribute("data-hand", "2")
            expect(tab.locator(".trump-dialog")).to_be_visible()
    finally:
        desktop.close()
        phone.close()
    assert errors == []


def test_a_whole_game_against_the_computer(server: Server, calm_page: Page) -> None:
    page = calm_page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    create_table(page, server.url, name="Cleo", opponent="easy")
    expect(page.locator(".trump-dialog")).to_contain_text("Choose your trump suit")
    screenshot(page, "computer-trump-choice")
    me = Person(page, gesture="mixed")  # cards dragged onto the pile and clicked, by turns

    def pictures(move: int) -> None:
        if move == 8:
            screenshot(page, "computer-mid")

    play_until_over([me], after_move=pictures)
    assert page.inner_text("#outcome-title") in OUTCOMES
    expect(page.locator(".outcome-dialog .score-table caption")).to_contain_text("1 hand played")
    history = page.inner_text(".history")
    assert "Computer" in history and "You" in history
    # The revealed seed hashes to the fingerprint published before the deal.
    expect(page.locator(".seed-ok")).to_contain_text("matches the fingerprint")
    screenshot(page, "computer-end")
    # Everything the page needed came from the game's own server: no fonts, scripts or images from elsewhere.
    elsewhere = [url for url in fetched if not url.startswith((server.url, server.url.replace("http", "ws"), "data:"))]
    assert fetched and elsewhere == []


def test_a_reload_mid_game_resumes_the_same_seat(server: Server, page: Page) -> None:
    table_id = create_table(page, server.url, name="Dora", opponent="easy")
    me = Person(page)
    for _ in range(6):
        page.wait_for_function(MY_TURN)
        me.act()
    page.wait_for_function(MY_TURN)  # the computer has answered: nothing is in flight
    before = me.data()
    hand = me.hand()
    assert before["phase"] in ("lead", "respond", "second") and hand

    page.reload()
    expect(page.locator(".table-view")).to_have_attribute("data-event-no", before["eventNo"])
    assert page.evaluate("new URLSearchParams(location.search).get('table')") == table_id
    assert me.data()["seat"] == "0"
    assert me.hand() == hand
    expect(page.locator("#connection")).to_have_text("Connected")
    # The game goes on from the reloaded page.
    page.wait_for_function(MY_TURN)
    assert me.act()


def test_a_table_with_a_clock_shows_the_time_left_from_the_trump_choice_on(server: Server, page: Page) -> None:
    """The clock runs for every move, the trump's choice included (docs/protocol.md, ``deadline``): the seat to act
    shows its seconds left then too, not only once the cards are dealt (the clock chose a trump unannounced)."""
    page.goto(server.url)
    page.fill("#create-name", "Ede")
    page.select_option('select[name="seat-1"]', "easy")
    page.select_option('select[name="clock"]', "15")
    page.click(".create-btn")
    expect(page.locator(".trump-dialog .suit-choice:not([disabled])")).to_have_count(4)
    seconds = re.compile(r"^1?\d s$")
    expect(page.locator(".me .seat-box .status .clock")).to_have_text(seconds)
    page.click(".suit-choice:not([disabled])")
    page.wait_for_function(MY_TURN + " && document.querySelector('.table-view').dataset.phase === 'lead'")
    expect(page.locator(".me .seat-box .status .clock")).to_have_text(seconds)


def test_a_dropped_connection_reconnects_by_itself(tmp_path: Path, browser: Browser) -> None:
    server = Server(tmp_path / "tables.sqlite3").start()
    restarted = Server(server.db, server.port)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    # Where taking is the only move the page takes by itself after a pause, which could land between
    # reading the hand and the kill: with that option off, nothing moves until this test does.
    context.add_init_script("localStorage.setItem('trumps:auto-take', 'off')")
    try:
        page = context.new_page()
        create_table(page, server.url, name="Eve", opponent="easy")
        me = Person(page)
        for _ in range(3):
            page.wait_for_function(MY_TURN)
            me.act()
        page.wait_for_function(MY_TURN)
        assert not page.locator(".auto-take-option").is_checked()
        hand, before = me.hand(), me.data()

        server.kill()
        expect(page.locator("#connection")).to_contain_text("reconnecting")
        screenshot(page, "reconnecting")
        restarted.start()  # the same database and port: the page finds its table again
        expect(page.locator("#connection")).to_have_text("Connected", timeout=15000)
        expect(page.locator(".table-view")).to_have_attribute("data-event-no", before["eventNo"])
        assert me.hand() == hand
        page.wait_for_function(MY_TURN)
        assert me.act()
    finally:
        context.close()
        server.stop()
        restarted.stop()


def test_an_illegal_click_is_refused_with_a_message(server: Server, page: Page) -> None:
    create_table(page, server.url, name="Finn", opponent="easy")
    me = Person(page)
    for _ in range(200):
        page.wait_for_function(
            "document.querySelector('.table-view')?.dataset.myTurn === 'yes'"
            " || document.querySelector('.outcome-dialog')"
        )
        if me.situation() == "move" and me.data()["phase"] == "respond" and me.unplayable_cards():
            break
        me.act()
    else:
        raise AssertionError("no position with an unplayable card came up")

    # The computer's seat says what it just did: led, added a second card, or took (leaving a pile to answer).
    said = page.inner_text(".opponents .seat-box .said")
    assert said.split()[0] in ("led", "added", "took"), said
    card = me.unplayable_cards()[0]
    before, hand = me.data()["eventNo"], me.hand()
    me.click_card(card)
    toast = page.locator(".toast.error")
    expect(toast).to_be_visible()
    label = ("10" if card[0] == "T" else card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]
    expect(toast).to_contain_text("does not beat")  # the refusal's own sentence, rendered from its data
    expect(toast).to_contain_text(label)
    assert "{" not in toast.inner_text() and "seat 0" not in toast.inner_text()
    screenshot(page, "illegal-click")
    assert me.data()["eventNo"] == before and me.hand() == hand


def test_the_other_page_shows_who_is_away(server: Server, browser: Browser) -> None:
    ada_context = browser.new_context(viewport={"width": 1280, "height": 860})
    bob_context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        ada_page, bob_page = ada_context.new_page(), bob_context.new_page()
        create_table(ada_page, server.url, name="Ada", opponent="free")
        link = ada_page.input_value(".waiting-dialog .share-link")
        bob_page.goto(link)
        bob_page.fill(".join-name", "Bob")
        expect(bob_page.locator(".take-seat")).to_have_text("Sit in seat 1")  # counted from 0, as in the logs
        bob_page.click(".take-seat")
        expect(bob_page.locator(".table-view")).to_have_attribute("data-seat", "1")
        expect(bob_page.locator(".toast")).to_contain_text("You sat down in seat 1.")
        bob_box = ada_page.locator('.opponents .seat-box[data-seat="1"]')
        expect(bob_box.locator(".name")).to_have_text("\u2068Bob\u2069")  # isolated, as every name
        expect(ada_page.locator(".table-view")).to_have_attribute("data-phase", "trump_choice")
        ada_page.wait_for_timeout(1700)  # longer than a page may take to connect before it counts as away
        expect(bob_box).not_to_have_class(re.compile(r"\baway\b"))

        bob_page.goto("about:blank")  # Bob closes the table's page: Ada's page hears it, with no event
        expect(bob_box.locator(".away-tag")).to_have_text("away")
        expect(bob_box).to_have_attribute("aria-label", re.compile("away"))
        screenshot(ada_page, "opponent-away")
        lobby = ada_context.new_page()
        lobby.goto(server.url)
        table_id = ada_page.evaluate("new URLSearchParams(location.search).get('table')")
        expect(lobby.locator(f'.table-item[data-table="{table_id}"]')).to_contain_text(
            "\u2068Ada\u2069 · \u2068Bob\u2069 (away)"
        )
        lobby.close()
        bob_page.go_back()  # and comes back to his seat
        expect(bob_page.locator(".table-view")).to_have_attribute("data-seat", "1")
        expect(bob_box.locator(".away-tag")).to_have_count(0)
    finally:
        ada_context.close()
        bob_context.close()
