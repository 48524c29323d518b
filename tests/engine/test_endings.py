"""Resigning and a draw by agreement (rules §3.4): events of a game, never moves of search."""

from __future__ import annotations

import pytest

from rules import core
from rules.events import AgreeDraw, ChooseTrump, GameOver, Position, Resign, parse_event
from rules.game import Game, IllegalEvent
from rules.match import Match
from rules.options import RuleSet
from rules.outcome import Outcome


def dealt_duel(seed: int = 3) -> Game:
    game = Game(RuleSet(), seed=seed)
    game.push(ChooseTrump(seat=1, suit="H"))
    game.push(ChooseTrump(seat=0, suit="S"))
    game.push(game.sample_deal())
    return game


def three_with_one_out() -> Game:
    position = Position(
        trumps=["S", "H", "D"], hands=[["8S", "6C"], ["KH", "7C"], []], pile=["9D"], to_act=0, phase="respond"
    )
    return Game.from_position(position, RuleSet(players=3))


def test_a_seat_not_to_act_resigns_and_loses_and_the_rest_keep_their_places() -> None:
    game = three_with_one_out()
    assert game.to_act == 0
    notes = game.push(Resign(seat=1))
    assert notes == [GameOver(result="loss", loser=1, reason="resigned")]
    assert game.outcome == Outcome(result="loss", loser=1, reason="resigned", out_order=[2])
    assert game.phase == "finished" and game.to_act is None
    assert core.won(game.outcome, 0) and core.won(game.outcome, 2) and not core.won(game.outcome, 1)


def test_a_draw_by_agreement_ends_the_game_drawn() -> None:
    game = dealt_duel()
    assert game.push(AgreeDraw()) == [GameOver(result="draw", reason="agreement")]
    assert game.outcome == Outcome.draw("agreement", ())
    assert game.legal_moves() == []


def test_pop_takes_a_resignation_back_and_play_goes_on() -> None:
    game = dealt_duel()
    before = game.state()
    game.push(Resign(seat=0))
    assert game.pop() == Resign(seat=0)
    assert game.state() == before and game.legal_moves()


@pytest.mark.parametrize(
    ("game", "event", "code"),
    [
        (lambda: three_with_one_out(), Resign(seat=2), "resign_out"),
        (lambda: three_with_one_out(), Resign(seat=3), "not_a_seat"),
        (lambda: Game(RuleSet()), Resign(seat=0), "before_play"),
        (lambda: Game(RuleSet()), AgreeDraw(), "before_play"),
    ],
)
def test_refused_endings_are_data_and_change_nothing(game: object, event: Resign | AgreeDraw, code: str) -> None:
    played: Game = game()  # type: ignore[operator]
    before, events = played.state(), played.events
    with pytest.raises(IllegalEvent) as refused:
        played.push(event)
    assert refused.value.refusal.code == code
    assert played.state() == before and played.events == events


def test_after_the_end_nothing_more_ends_it() -> None:
    game = dealt_duel()
    game.push(Resign(seat=1))
    for event in (Resign(seat=0), AgreeDraw()):
        refused = game.refusal(event)
        assert refused is not None and refused.code == "game_over"


def test_search_never_sees_an_ending() -> None:
    """The table takes resign and agree_draw in play, but neither is a move: legal moves list cards and take only."""
    game = dealt_duel()
    state = game.core_state()
    for phase in (core.LEAD, core.RESPOND, core.SECOND):
        assert {"resign", "agree_draw"} <= core.RULES.triggers[phase]
    assert all(0 <= move <= core.TAKE for move in core.legal_moves(state))
    assert all(event.type in ("lead", "beat", "second", "take") for event in game.legal_moves())
    assert "resign" not in core.RULES.source and "agreement" not in core.RULES.source


def test_a_log_line_of_each_parses() -> None:
    assert parse_event('{"type":"resign","seat":1}') == Resign(seat=1)
    assert parse_event('{"type":"agree_draw"}') == AgreeDraw()


def test_a_match_counts_a_resigned_hand_as_lost_and_an_agreed_one_as_drawn() -> None:
    match = Match(RuleSet(players=2, dealer=0), hands=3)
    match.record(Outcome.resigned(0, ()))
    assert match.hands_lost == [1, 0] and match.dealer == 0
    match.record(Outcome.draw("agreement", ()))
    assert match.draws == 1 and match.dealer == 0
    match.record(Outcome.resigned(1, ()))
    assert match.hands_lost == [1, 1] and match.dealer == 1 and match.over
