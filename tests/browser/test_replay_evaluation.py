"""The analysis board's evaluation box and narration in Debian's Chromium: what it says of a position, and that it
never stays "Analysing…" for good.

Where an answer of the server's depends on its solver's half second, the page is given a fixed answer instead
(Playwright's routing): the page's drawing of it is the subject, not the solver's speed.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from browser_helpers import Server
from playwright.sync_api import Page, Route, expect

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
DUEL = VECTORS / "full_game_duel.jsonl"


def _open(page: Page, server: Server, text: str, ply: int | None = None) -> None:
    page.goto(f"{server.url}/replay")
    page.fill("textarea.paste", text)
    page.click(".open-pasted")
    page.wait_for_selector(".replay-layout")
    if ply is not None:
        page.locator(".ply-slider").fill(str(ply))
        expect(page.locator(".replay-layout")).to_have_attribute("data-ply", str(ply))


def test_a_draw_by_agreement_is_told_as_one_not_as_the_tie_check(server: Server, page: Page) -> None:
    _open(page, server, (VECTORS / "draw_by_agreement.jsonl").read_text())
    narration = page.locator(".narration")
    expect(narration).to_contain_text("The players agreed to a draw.")
    expect(narration).to_contain_text("A draw by agreement.")
    expect(narration).not_to_contain_text("tie check")


def test_the_moves_the_solver_left_open_are_listed_as_not_settled(server: Server, page: Page) -> None:
    """docs/protocol.md: an exact evaluation lists the moves whose values the half second left open in
    ``unsettled``; the page lists them with the others, "not settled", instead of leaving them out."""
    answer: dict[str, Any] = {
        "kind": "exact",
        "seat": 0,
        "scores": [1.0, 0.0],
        "value": 1,
        "best": [{"type": "beat", "seat": 0, "card": "9S"}],
        "moves": [{"move": {"type": "beat", "seat": 0, "card": "9S"}, "value": 1}],
        "unsettled": [{"type": "take", "seat": 0, "count": 3}],
    }

    def fixed(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/api/analysis", fixed)
    _open(page, server, DUEL.read_text(), 30)
    box = page.locator(".evaluation")
    expect(box).to_have_attribute("data-kind", "exact")
    expect(box.locator(".move-values li")).to_have_text(["beat with 9♠: win", "take: not settled"])


def test_a_position_after_a_repetition_is_evaluated_exactly_the_repetition_counted(server: Server, page: Page) -> None:
    """The eighth position of the vector follows a position that came up twice: the take that would bring it up a
    third time is a draw, the beat a win, and the board says so exactly (the server tells its solver the history)."""
    _open(page, server, (VECTORS / "position_with_seen_history.jsonl").read_text(), 8)
    box = page.locator(".evaluation")
    expect(box).to_have_attribute("data-kind", "exact", timeout=30_000)
    expect(box.locator(".move-values li")).to_have_text(["beat with K♥: win", "take: draw"])


def test_the_moves_are_listed_best_first_as_trumps_solve_lists_them(server: Server, page: Page) -> None:
    """The first lead of the vector: A♠ comes first in the pack, but it loses and 7♦ wins."""
    _open(page, server, (VECTORS / "position_with_seen_history.jsonl").read_text(), 1)
    box = page.locator(".evaluation")
    expect(box).to_have_attribute("data-kind", "exact", timeout=30_000)
    expect(box.locator(".move-values li")).to_have_text(["lead 7♦: win", "lead A♠: loss"])


def test_a_failed_evaluation_says_why_and_can_be_asked_again(server: Server, page: Page) -> None:
    """A server that cannot evaluate (here a 500 ``internal``) leaves no position "Analysing…" for good: the box
    says why, and its button asks again, which a working server then answers."""
    failing = True

    def answer(route: Route) -> None:
        if failing:
            body = {"type": "error", "code": "internal", "message": "the server failed"}
            route.fulfill(status=500, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    page.route("**/api/analysis", answer)
    _open(page, server, (VECTORS / "position_with_seen_history.jsonl").read_text())
    box = page.locator(".evaluation")
    expect(box).to_have_attribute("data-kind", "failed")
    expect(box.locator(".problem")).to_have_text("No evaluation: Something went wrong on the server. Try again.")
    failing = False
    box.locator(".ask-again").click()
    expect(box).to_have_attribute("data-kind", "over", timeout=30_000)


def test_a_hand_a_table_has_not_had_is_not_called_a_missing_table(server: Server, page: Page) -> None:
    """The server answers ``not_found`` for a table it does not have and for a hand a table has not had. The page
    tells them apart, in every language (the English of the server's message said it in English only)."""
    request = urllib.request.Request(
        f"{server.url}/api/tables", data=json.dumps({"players": 2}).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        table = json.loads(response.read())["table"]["id"]
    page.add_init_script("localStorage.setItem('trumps.lang', 'ru')")
    page.goto(f"{server.url}/replay?table={table}&hand=1")
    expect(page.locator(".opener .problem")).to_have_text(
        "Не удалось получить запись этой партии: за этим столом ещё нет партии 1"
    )
    page.goto(f"{server.url}/replay?table=nosuchtable&hand=1")
    expect(page.locator(".opener .problem")).to_contain_text("Такого стола нет")


def test_a_file_that_is_not_utf8_is_refused_at_its_line_as_trumps_replay_refuses_it(server: Server, page: Page) -> None:
    """``trumps replay`` refuses a log whose line is not UTF-8 (log format §L1); the browser would read the bad byte
    as U+FFFD and the server would then replay another log, here a valid one."""
    log = b'{"type":"start"}\n{"type":"choose_trump","seat":1,"suit":"H","note":"caf\xe9"}\n'
    page.goto(f"{server.url}/replay")
    page.set_input_files(".file-input", files=[{"name": "game.jsonl", "mimeType": "text/plain", "buffer": log}])
    expect(page.locator(".opener .problem")).to_have_text("This log cannot be replayed: Line 2 is not UTF-8 text.")
