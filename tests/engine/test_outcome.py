"""One outcome type: core makes it, Game reports that very object, pictures and notifications are read off it."""

from __future__ import annotations

import random

import pytest

from rules import core
from rules.convert import game_over
from rules.events import GameOver
from rules.game import Game
from rules.options import RuleSet
from rules.outcome import Outcome


@pytest.mark.parametrize("seed", range(12))
def test_the_game_reports_the_outcome_core_made(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(RuleSet(players=2 + seed % 3), seed=seed)
    while game.phase == "trump_choice":
        game.push(rng.choice(game.legal_moves()))
    game.push(game.sample_deal())
    search = game.core_state()
    last: list[object] = []
    while game.outcome is None:
        assert search.outcome is None
        move = rng.choice(game.legal_moves())
        core.apply(search, core.legal_moves(search)[game.legal_moves().index(move)])
        last = list(game.push(move))
    outcome = game.outcome
    assert isinstance(outcome, Outcome)
    assert outcome is game.core_state().outcome  # no conversion between core and Game
    assert outcome == search.outcome  # the search path makes an equal one
    assert game.state().outcome is outcome and game.view(0).outcome is outcome
    assert last[-1] == game_over(outcome) == GameOver(result=outcome.result, loser=outcome.loser, reason=outcome.reason)
    assert outcome.out_order == list(search.out_order)
    assert core.returns(search) == [
        0.0 if outcome.loser is None else (-1.0 if seat == outcome.loser else 1.0) for seat in range(search.players)
    ]


def test_the_outcome_json_is_unchanged() -> None:
    assert Outcome.loss(1, (0, 2)).model_dump(mode="json") == {"result": "loss", "loser": 1, "out_order": [0, 2]}
    assert Outcome.draw("tie_check", (1,)).model_dump(mode="json") == {
        "result": "draw",
        "reason": "tie_check",
        "out_order": [1],
    }
