"""The table page on a phone (375×740 and 320×568): a hand of any size playable by thumb, Take within reach.

The smallest target of the hand is measured: for each card, the widest and the tallest run of
points where a tap lands on that card (sampled every 2 px), and the least of these over the hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from browser_helpers import Person, Server, create_table, screenshot
from playwright.sync_api import Browser, Page

PHONES = [(375, 740), (320, 568)]
SMALLEST_TARGET_PX = 24
"""WCAG 2.2 (2.5.8, level AA) asks for targets of at least 24 by 24 CSS pixels."""

# A hand of `n` cards laid out by the page's own code and style, then the smallest tap target in it.
_MEASURE = """async (n) => {
  const { layoutFan } = await import('/static/js/hand.js');
  const { makeCard } = await import('/static/js/cards.js');
  const codes = [];
  for (const suit of 'SHDC') for (const rank of '6789TJQKA') codes.push(rank + suit);
  document.querySelector('#test-hand')?.remove();
  const hand = document.createElement('div');
  hand.id = 'test-hand';
  hand.className = 'hand';
  for (const code of codes.slice(0, n)) {
    const card = makeCard(code, 'button');
    card.classList.add('legal');
    hand.append(card);
  }
  document.querySelector('main').prepend(hand);
  layoutFan(hand);
  await new Promise((resolve) => setTimeout(resolve, 50));
  hand.scrollIntoView();
  let smallest = Infinity;
  for (const card of hand.querySelectorAll('.card')) {
    const box = card.getBoundingClientRect();
    let wide = 0, tall = 0;
    const hits = new Map();
    for (let y = Math.max(0, box.top); y < Math.min(innerHeight, box.bottom); y += 2) {
      let run = 0;
      for (let x = Math.max(0, box.left); x < Math.min(innerWidth, box.right); x += 2) {
        const on = document.elementFromPoint(x, y)?.closest('.card') === card;
        run = on ? run + 2 : 0;
        wide = Math.max(wide, run);
        hits.set(`${x}`, on ? (hits.get(`${x}`) ?? 0) + 2 : 0);
        tall = Math.max(tall, hits.get(`${x}`));
      }
    }
    smallest = Math.min(smallest, Math.min(wide, tall));
  }
  return { smallest, rows: Number(hand.dataset.rows), bottom: hand.getBoundingClientRect().bottom };
}"""


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_a_hand_of_any_size_is_playable_by_thumb(server: Server, browser: Browser, width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector(".lobby")  # drawn: the lobby replaces what is in <main> when it is
        figures = {}
        for cards in (6, 18, 24, 30, 36):
            measured = page.evaluate(_MEASURE, cards)
            figures[cards] = measured
            assert measured["smallest"] >= SMALLEST_TARGET_PX, (cards, measured)
        screenshot(page, f"phone-{width}x{height}-hand-36")
        smallest = {n: f["smallest"] for n, f in figures.items()}
        print(f"\n{width}x{height}: smallest tap target (px) by cards in hand: {smallest}")
        assert figures[36]["rows"] > 1 and figures[6]["rows"] == 1
    finally:
        context.close()


@contextmanager
def lobby_of_four_at_320(server: Server, browser: Browser, lang: str) -> Iterator[Page]:
    """The lobby on a 320-pixel phone in ``lang``, its form set for four players."""
    context = browser.new_context(viewport={"width": 320, "height": 568}, locale=lang)
    try:
        page = context.new_page()
        page.goto(server.url)
        page.check('input[name="players"][value="4"]')
        yield page
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ro", "fi", "cs", "ky", "ru"])
def test_at_320_the_opponents_names_are_whole_at_a_table_of_four(server: Server, browser: Browser, lang: str) -> None:
    """Three computers side by side on a phone: each name ("Computer 2", "Calculatorul 2") whole, not cut short."""
    with lobby_of_four_at_320(server, browser, lang) as page:
        page.click(".create-btn")
        page.wait_for_selector(".opponents .seat-box .name")
        names = page.eval_on_selector_all(
            ".opponents .seat-box .name", "names => names.map((n) => [n.textContent, n.scrollWidth - n.clientWidth])"
        )
        assert len(names) == 3 and all(cut <= 0 for _, cut in names), names


ARROW_PX = 20
"""What a menu's arrow takes of its width in Chromium (the text is cut short with "…" before it)."""

# Each choice of each seat menu of the lobby: its text's width in the menu's font, and the menu's room for text.
_SEAT_CHOICES = """() => [...document.querySelectorAll('.seat-row select')].flatMap((menu) => {
  const style = getComputedStyle(menu);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const room = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [...menu.options].map((option) => [option.text, pen.measureText(option.text).width, room]);
})"""


@pytest.mark.parametrize("lang", ["en", "ro", "fi", "cs", "ky", "ru"])
def test_at_320_each_seats_choice_in_the_lobby_is_read_whole(server: Server, browser: Browser, lang: str) -> None:
    """The level a seat's menu shows ("Computer, medium", "Компьютер: безупречный") is not cut to "Computer, medi…"."""
    with lobby_of_four_at_320(server, browser, lang) as page:
        page.wait_for_selector('select[name="seat-3"]')
        choices = page.evaluate(_SEAT_CHOICES)
        assert len(choices) == 3 * 5
        cut = [(text, round(width), room) for text, width, room in choices if width + ARROW_PX > room]
        assert not cut, cut


def test_on_a_phone_at_a_table_of_four_your_turn_brings_your_cards_into_sight(server: Server, browser: Browser) -> None:
    """Three opponents fill a 360x640 screen: when the lead is yours, the page scrolls your cards up into it."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(server.url)
        page.check('input[name="players"][value="4"]')
        page.click(".create-btn")
        person = Person(page)
        for _ in range(20):  # the creator chooses a trump first and leads first
            if person.situation() == "move":
                break
            if not person.act():
                page.wait_for_timeout(50)
        assert person.situation() == "move"
        card = page.locator(".hand .card").first.bounding_box()
        assert card is not None and card["y"] >= 0 and card["y"] + card["height"] <= 640, card
    finally:
        context.close()


def _next_hand(page: Page) -> None:
    """Ask for the next hand and wait till it is dealt: until then the page still shows the hand's end, and
    a second click could find the button it showed gone when the deal arrives."""
    page.click(".next-hand")
    page.wait_for_selector(".outcome-dialog", state="detached")


def _take_offered(person: Person, page: Page, moves: int = 200) -> bool:
    """Play (the first legal card) until Take is offered with a card to play as well; whether it was."""
    for _ in range(moves):
        situation = person.situation()
        if situation == "over":
            return False
        if situation == "move" and page.locator(".take-btn").count() and person.legal_cards():
            return True
        if not person.act():
            page.wait_for_timeout(50)
    return False


def test_at_320_by_568_take_and_the_hand_are_on_screen_together(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 568}, has_touch=True)
    try:
        page = context.new_page()
        create_table(page, server.url, name="Pia", opponent="easy")
        person = Person(page)
        for _ in range(3):
            if _take_offered(person, page):
                break
            _next_hand(page)
        else:
            raise AssertionError("Take was never offered in three hands")
        page.evaluate("window.scrollTo(0, 0)")
        # the site's name whole at a table too, not cut short with an ellipsis
        assert page.eval_on_selector(".brand > span", "name => name.scrollWidth <= name.clientWidth")
        take = page.locator(".take-btn").bounding_box()
        hand = page.locator(".hand").bounding_box()
        assert take is not None and hand is not None
        screenshot(page, "phone-320x568-take")
        card = page.locator(".hand .card").first.bounding_box()
        assert card is not None
        # The first screen holds the button and at least the first row of the hand, without scrolling
        # (the whole hand too unless it is very large: figures printed for the report).
        print(
            f"\n320x568: Take at {take['y']:.0f}-{take['y'] + take['height']:.0f} px, hand at "
            f"{hand['y']:.0f}-{hand['y'] + hand['height']:.0f} px, {len(person.hand())} cards"
        )
        assert take["y"] >= 0 and card["y"] + card["height"] <= 568, (take, hand)
        # While the other player decides there is no (greyed) Take button at all.
        assert page.locator(".take-btn[disabled]").count() == 0
    finally:
        context.close()


def test_the_page_takes_by_itself_when_taking_is_the_only_move(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True)
    try:
        page = context.new_page()
        create_table(page, server.url, name="Oz", opponent="easy")
        person = Person(page)
        taken_by_itself = False
        for _ in range(600):
            situation = person.situation()
            if situation == "over":
                _next_hand(page)
                continue
            if situation == "move" and not person.legal_cards():
                # Only Take is offered: leave it to the page. The next event can only be this seat's take.
                before, held = person.data()["eventNo"], len(person.hand())
                page.wait_for_function(
                    "(before) => document.querySelector('.table-view').dataset.eventNo !== before", arg=before
                )
                taken_by_itself = len(person.hand()) > held
                break
            if not person.act():
                page.wait_for_timeout(50)
        assert taken_by_itself
        assert page.locator(".auto-take-option").is_checked()
    finally:
        context.close()
