"""Fixtures of the browser tests: one server and one Chromium per test module.

Module scope, not session scope: Playwright's sync API runs an asyncio loop in the main
thread while it is open, and later test modules (the server's) call ``asyncio.run``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, launch
from playwright.sync_api import Browser, Page, sync_playwright

if not Path(CHROMIUM).exists():
    # The tests need Debian's chromium (run-tests installs it); without it they must fail, not skip.
    raise RuntimeError(f"{CHROMIUM} is missing: apt-get install chromium (run-tests does it)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("browser") / "tables.sqlite3").start()
    yield served
    served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def _desktop_page(browser: Browser, **options: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, **options)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], f"script errors on the page: {errors}"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop-sized page in a fresh context; an uncaught script error fails the test."""
    yield from _desktop_page(browser)


@pytest.fixture
def calm_page(browser: Browser) -> Iterator[Page]:
    """The same, for someone who asked their system for reduced motion: computer moves are drawn at once."""
    yield from _desktop_page(browser, reduced_motion="reduce")
