"""Resigning at the page (rules §3.4.1): the button asks first, then the end-of-hand panel says who resigned."""

from __future__ import annotations

import json
import urllib.request

import pytest
from browser_helpers import Server, sit_at
from playwright.sync_api import Dialog, Page, expect
from test_languages import catalog


def _duel_against_the_computer(url: str) -> tuple[str, str]:
    body = {"players": 2, "dealer": 1, "computer": [{"seat": 1, "level": "easy"}], "join": True, "seat": 0}
    request = urllib.request.Request(
        f"{url}/api/tables", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.load(response)
    return created["table"]["id"], created["token"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_resigning_asks_first_and_the_panel_says_you_resigned(server: Server, page: Page, lang: str) -> None:
    words = catalog(lang)
    table_id, token = _duel_against_the_computer(server.url)
    page.add_init_script(f"localStorage.setItem('trumps.lang', {json.dumps(lang)})")
    sit_at(page, server.url, table_id, token)
    page.locator(".suit-choice:not([disabled])").first.click()  # seat 0 chooses first, then leads
    resign = page.locator(".resign-btn")
    expect(resign).to_have_text(words["end.resign"])
    expect(page.locator(".draw-btn")).to_have_text(words["end.offer_draw"])
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if len(asked) == 1:
            dialog.dismiss()  # changed one's mind: nothing happens
        else:
            dialog.accept()

    page.on("dialog", answer)
    resign.click()
    expect(resign).to_be_visible()
    assert asked == [words["end.resign_confirm"]]
    resign.click()
    panel = page.locator(".outcome-dialog")
    expect(panel.locator("#outcome-title")).to_have_text(words["outcome.you_lost"])
    expect(panel).to_contain_text(words["outcome.resigned.you"])
    expect(page.locator(".history")).to_contain_text(words["event.resign.you"])
