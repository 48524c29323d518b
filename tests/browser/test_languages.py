"""The page in each of its languages, driven in Debian's Chromium on a 320-pixel-wide screen.

For every language the browser asks for it (Accept-Language), a person plays a whole hand
against the computer through the page, and at each look: the page is in that language (no
English word on screen, in a label or a tooltip, card indices apart), and nothing sticks
out sideways. A pseudo-locale (every letter accented, every message a third longer) finds
words that do not come from the catalogs at all. The analysis board (/replay) gets the same
looks over a short log, stepped a few positions. Screenshots: artifacts/screenshots/lang-*.png.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Person, Server, create_table, play_until_over, screenshot
from playwright.sync_api import Browser, Page, Route

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "rules" / "server" / "static" / "i18n"
# A three-player position two moves from its end: the board shows the estimate (the solver plays duels only).
SHORT_LOG = ROOT / "spec" / "vectors" / "go_out_with_second_card.jsonl"
LANGUAGES = ["en", "ro", "fi", "cs", "ky", "ru"]
PHONE = {"width": 320, "height": 640}
NAMES = {"en": "Cleo", "ro": "Ioana", "fi": "Aino", "cs": "Jana", "ky": "Айгүл", "ru": "Ваня", "en-XA": "Ŋőŕå"}
PLACEHOLDER = re.compile(r"(\{\w+\})")

# What the page shows, as a person (or a screen reader) meets it: the visible text, the
# labels and tooltips, the title, the words a style sheet adds. The language picker lists each language in its own name.
_SHOWN = """() => {
  const picker = document.getElementById('language');
  const text = [...document.body.querySelectorAll('*')]
    .filter((node) => node !== picker && !picker.contains(node) && node.closest('svg, noscript') === null)
    .flatMap((node) => [...node.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent))
    .join(' ');
  const attrs = [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
    .filter((node) => node !== picker)
    .flatMap((node) => ['aria-label', 'title', 'placeholder'].map((a) => node.getAttribute(a) || ''));
  const generated = [...document.body.querySelectorAll('*')].flatMap((node) =>
    ['::before', '::after'].map((pseudo) => getComputedStyle(node, pseudo).content)
      .filter((content) => content.startsWith('"')));
  return [document.title, text, ...attrs, ...generated].join(' \\n ');
}"""

_OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def catalog(lang: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


def words(text: str) -> set[str]:
    """The words of ``text`` written in plain Latin letters only, three or more, lower case ("aceeași" is not one)."""
    return {word.lower() for word in re.findall(r"\w+", text) if len(word) >= 3 and re.fullmatch("[A-Za-z]+", word)}


def english_words(lang: str) -> set[str]:
    """Words of the English catalog that would betray an untranslated string in ``lang``."""

    def texts(messages: dict[str, Any]) -> str:
        forms = [
            form
            for message in messages.values()
            for form in (message.values() if isinstance(message, dict) else [message])
        ]
        return " ".join(PLACEHOLDER.sub(" ", form) for form in forms)

    # Words the language itself uses (Enter, Tab, SHA, Svoi Kozyri, "duel" in Czech ...) are not a sign.
    return words(texts(catalog("en"))) - words(texts(catalog(lang))) - {"svoi", "kozyri"}


_PSEUDO = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)


def pseudo(text: str) -> str:
    """``text`` accented letter by letter, placeholders kept, about 35 % longer: ``[Ţåķé {count} ··· ··]``.

    The padding comes in short words, so that it wraps as a long translation would.
    """
    parts = [part if PLACEHOLDER.fullmatch(part) else part.translate(_PSEUDO) for part in PLACEHOLDER.split(text)]
    padding = "·" * max(1, round(len(text) * 0.35) - 3)
    return f"[{''.join(parts)} {' '.join(re.findall('.{1,4}', padding))}]"


def pseudo_catalog() -> dict[str, Any]:
    return {
        key: {form: pseudo(text) for form, text in message.items()} if isinstance(message, dict) else pseudo(message)
        for key, message in catalog("en").items()
    }


class Looks:
    """Each look at the page: what is shown in a language other than the page's, and any sideways overflow."""

    def __init__(self, page: Page, lang: str, neutral: tuple[str, ...] = ()) -> None:
        self.page = page
        self.lang = lang
        self.neutral = neutral  # shown text that is the same in every language (a log's JSON)
        self.stray: dict[str, set[str]] = {}
        self.overflow: dict[str, int] = {}
        self.forbidden = english_words(lang) if lang != "en-XA" else set()

    def look(self, when: str) -> None:
        shown = self.page.evaluate(_SHOWN)
        # The table's id (in the title) and the names people gave are not the page's words.
        table = self.page.evaluate("new URLSearchParams(location.search).get('table') || ''")
        shown = shown.replace(table, " ") if table else shown
        for name in (*NAMES.values(), *self.neutral):
            shown = shown.replace(name, " ")
        if self.lang == "en-XA":
            # Everything from a catalog is accented: plain Latin words were written in the code.
            allowed = {"enter", "tab", "sha", "svoi", "kozyri"}
            found = words(shown) - allowed
        else:
            found = words(shown) & self.forbidden
        if found:
            self.stray[when] = found
        wider = self.page.evaluate(_OVERFLOW)
        if wider > 0:
            self.overflow[when] = wider


def phone_page(browser: Browser, lang: str) -> tuple[Any, Page]:
    if lang == "en-XA":
        context = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion="reduce")
        context.add_init_script("localStorage.setItem('trumps.lang', 'en-XA')")
        body = json.dumps(pseudo_catalog(), ensure_ascii=False)

        def serve(route: Route) -> None:
            route.fulfill(status=200, content_type="application/json", body=body)

        context.route("**/static/i18n/en-XA.json", serve)
    else:
        context = browser.new_context(viewport=PHONE, locale=lang, reduced_motion="reduce")
    return context, context.new_page()


@pytest.mark.parametrize("lang", [*LANGUAGES, "en-XA"])
def test_a_hand_in_each_language_on_a_phone(server: Server, browser: Browser, lang: str) -> None:
    context, page = phone_page(browser, lang)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        looks = Looks(page, lang)
        page.goto(server.url)
        page.wait_for_selector(".lobby")
        assert page.evaluate("document.documentElement.lang") == lang
        looks.look("lobby")
        screenshot(page, f"lang-{lang}-lobby")
        create_table(page, server.url, name=NAMES[lang], opponent="easy")
        page.wait_for_selector(".trump-dialog")
        looks.look("trump choice")
        if lang != "en-XA":  # your own box speaks of you ("Vybíráš trumf…"), not of a third person ("Vybírá trumf…")
            assert page.inner_text(".me .seat-box .status") == catalog(lang)["status.choosing.you"]
        me = Person(page, gesture="keyboard")  # the hand may reach below a small screen

        def look(move: int) -> None:
            if move in (2, 5, 9):
                looks.look(f"move {move}")
            if move == 5:
                screenshot(page, f"lang-{lang}-play")

        play_until_over([me], after_move=look)
        looks.look("end")
        screenshot(page, f"lang-{lang}-end")
        # Played by the keyboard: the hand's end takes it to the dialog's button, and Enter there to the next trump.
        assert page.evaluate("document.activeElement.matches('.outcome-dialog .next-hand')"), "the end keeps the focus"
        page.keyboard.press("Enter")
        page.wait_for_selector(".trump-dialog .suit-choice:not([disabled])")
        assert page.evaluate("document.activeElement.matches('.suit-choice')"), "the next hand's trump has no focus"
        assert looks.stray == {}, f"{lang}: words not in the page's language"
        assert looks.overflow == {}, f"{lang}: wider than a 320-pixel screen by (pixels)"
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", [*LANGUAGES, "en-XA"])
def test_the_analysis_board_in_each_language_on_a_phone(server: Server, browser: Browser, lang: str) -> None:
    context, page = phone_page(browser, lang)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server.url}/replay")
        page.wait_for_selector("textarea.paste")
        assert page.evaluate("document.documentElement.lang") == lang
        # The example in the paste box is a log line, the same in every language.
        looks = Looks(page, lang, neutral=(page.get_attribute("textarea.paste", "placeholder") or "",))
        looks.look("opener")
        page.fill("textarea.paste", SHORT_LOG.read_text(encoding="utf-8"))
        page.click(".open-pasted")
        page.wait_for_selector(".replay-layout")
        page.keyboard.press("Home")
        for ply in range(3):
            if ply:
                page.keyboard.press("ArrowRight")
            page.wait_for_selector(f".replay-layout[data-ply='{ply}'] .evaluation:not([data-kind='pending'])")
            looks.look(f"position {ply}")
        screenshot(page, f"lang-{lang}-replay")
        assert looks.stray == {}, f"{lang}: words not in the page's language on the analysis board"
        assert looks.overflow == {}, f"{lang}: the analysis board is wider than a 320-pixel screen by (pixels)"
        assert errors == []
    finally:
        context.close()


def test_the_picker_changes_the_language_and_it_is_remembered(server: Server, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector(".lobby")
        assert page.inner_text("h1") == "Your trumps"
        with page.expect_navigation():
            page.select_option("#language", "cs")
        page.wait_for_selector(".lobby")
        assert page.inner_text("h1") == catalog("cs")["lobby.heading"]
        assert page.evaluate("document.documentElement.lang") == "cs"
        page.goto(server.url)  # a new visit, the browser still asking for English
        page.wait_for_selector(".lobby")
        assert page.inner_text(".create h2") == catalog("cs")["form.new_table"]
        assert page.title() == catalog("cs")["page.lobby_title"]
    finally:
        context.close()


def test_plural_forms_follow_the_language(server: Server, browser: Browser) -> None:
    """Take 1, 3 and 5 cards in Russian, Czech and Romanian: each count picks its own form."""
    context = browser.new_context(locale="ru")
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector(".lobby")
        said = {
            lang: page.evaluate(
                """async (lang) => {
                  const i18n = await import('/static/js/i18n.js');
                  await i18n.loadLanguage(lang);
                  return [1, 3, 5, 21, 22].map((count) => i18n.t('note.took.you', { count, cards: '…' }));
                }""",
                lang,
            )
            for lang in ("ru", "cs", "ro")
        }
    finally:
        context.close()
    assert said["ru"] == [
        "Вы берёте 1 карту: ….",
        "Вы берёте 3 карты: ….",
        "Вы берёте 5 карт: ….",
        "Вы берёте 21 карту: ….",
        "Вы берёте 22 карты: ….",
    ]
    assert said["cs"][:3] == ["Bereš 1 kartu: ….", "Bereš 3 karty: ….", "Bereš 5 karet: …."]
    assert said["ro"] == [
        "Ai luat 1 carte: ….",
        "Ai luat 3 cărți: ….",
        "Ai luat 5 cărți: ….",
        "Ai luat 21 de cărți: ….",
        "Ai luat 22 de cărți: ….",
    ]
