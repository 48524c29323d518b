"""The strict site build passes offline, with the chart drawn inline and the card pictures in the pages;
the built site's first screen in each language, in Chromium (screenshots: artifacts/screenshots/docs-*.png)."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from browser.browser_helpers import launch, screenshot
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``mkdocs build --strict`` builds it, once for the module."""
    home = tmp_path_factory.mktemp("docs")
    site = home / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "HOME": str(home)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return site


def test_strict_build(site: Path) -> None:
    machine = (site / "machine" / "index.html").read_text(encoding="utf-8")
    assert '<div class="machine-chart"' in machine and "<svg" in machine
    assert "mermaid" not in machine  # nothing to fetch or run in the browser
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert rules.count('class="sk-table"') >= 10
    assert "§3.3 [decision] Endless play" in rules
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert "legal_moves" in api and "highlight language-python" in api  # doctest examples shown as code
    for page in ("generated/events", "generated/cli", "conformance", "protocol"):
        assert (site / page / "index.html").exists()
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text and "unpkg.com" not in text, html
    # Every language of the game has its home page and its rules page, with the language switcher.
    for lang in ("ro", "fi", "cs", "ky", "ru"):
        for page in (site / lang / "index.html", site / lang / "rules" / "index.html"):
            html = page.read_text(encoding="utf-8")
            assert f'<html lang="{lang}"' in html and 'hreflang="en"' in html, page


def nav_labels() -> set[str]:
    """Every label of mkdocs.yml's nav, in English."""

    def labels(items: list[object]) -> Iterator[str]:
        for item in items:
            if isinstance(item, dict):
                for label, value in item.items():
                    yield label
                    if isinstance(value, list):
                        yield from labels(value)

    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    # The hooks and plugins of the file need not load: only the nav is read.
    nav = yaml.safe_load(config[config.index("\nnav:") :])["nav"]
    return set(labels(nav))


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """No line per request on the test's output."""


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


# The aim of the game, as the one-minute introduction of each language words it.
AIM = {
    "en": "get rid of all your cards",
    "ro": "scapă de toate cărțile",
    "fi": "pääse eroon kaikista korteistasi",
    "cs": "zbav se všech svých karet",
    "ky": "бардык карталарыңыздан кутулуңуз",
    "ru": "избавиться от всех своих карт",
}

# What is on the first screen: the visible text of the page inside the viewport, and the nav's labels.
_FIRST_SCREEN = """() => {
  const inView = (node) => { const box = node.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.top < innerHeight && box.bottom > 0; };
  const text = [...document.querySelectorAll('.md-content p, .md-content h1, .md-content h2')]
    .filter(inView).map((node) => node.innerText).join(' ');
  const nav = [...document.querySelectorAll('.md-sidebar--primary .md-nav__link, .md-header__topic')]
    .map((node) => node.innerText.trim()).filter(Boolean);
  return [text, nav];
}"""


@pytest.mark.parametrize("page", ["", "rules/"])
def test_the_first_screen_says_the_aim_and_the_navigation_is_translated(served: str, page: str) -> None:
    english = nav_labels() | {"Your trumps"}
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        tab = context.new_page()
        looks = {}
        for lang, aim in AIM.items():
            prefix = "" if lang == "en" else f"{lang}/"
            tab.goto(f"{served}/{prefix}{page}")
            text, nav = tab.evaluate(_FIRST_SCREEN)
            assert aim in text.lower(), f"{lang}/{page}: the aim is not on the first screen"
            assert len(nav) >= len(english) - 1, nav
            looks[lang] = set(nav)
            screenshot(tab, f"docs-{lang}-{page.strip('/') or 'home'}")
        browser.close()
    assert {"State machine", "Reference", "Your trumps"} <= looks["en"]  # the labels are where they are looked for
    left = {lang: sorted(labels & english) for lang, labels in looks.items() if lang != "en" and labels & english}
    assert left == {}, f"English left in the navigation: {left}"


def test_a_name_in_a_table_cell_is_not_broken_inside(served: str) -> None:
    with sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_page(viewport={"width": 390, "height": 800})
        tab.goto(f"{served}/machine/")
        lines = tab.eval_on_selector_all(
            "td code", "codes => codes.map((code) => [code.innerText, code.getClientRects().length])"
        )
        browser.close()
    assert ["trump_choice", 1] in lines
    assert [text for text, rects in lines if rects > 1 and " " not in text] == []
