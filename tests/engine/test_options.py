"""The rule options are validated once: the log header, RuleSet and the server's table refuse alike."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.events import EventError, RuleOptions, Start, parse_event
from rules.options import RuleSet
from rules.server.protocol import CreateTable
from rules.server.tables import Refused, TableConfig


@pytest.mark.parametrize(("players", "dealer"), [(2, 2), (3, 3), (2, 3)])
def test_a_dealer_who_is_no_seat_is_refused_with_one_reason(players: int, dealer: int) -> None:
    reason = f"dealer {dealer} is not a seat of a {players}-player game"
    with pytest.raises(EventError) as header:
        parse_event({"type": "start", "players": players, "dealer": dealer})
    with pytest.raises(ValidationError) as rule_set:
        RuleSet(players=players, dealer=dealer)
    with pytest.raises(Refused) as table:
        TableConfig.of(CreateTable(players=players, dealer=dealer))
    assert str(header.value) == f"invalid start event: {reason}"
    assert rule_set.value.errors()[0]["msg"] == f"Value error, {reason}"
    assert str(table.value) == reason


@pytest.mark.parametrize("players", [1, 5])
def test_a_number_of_players_out_of_range_is_refused_alike(players: int) -> None:
    with pytest.raises(ValidationError) as header:
        Start(players=players)
    with pytest.raises(ValidationError) as rule_set:
        RuleSet(players=players)
    assert [e["msg"] for e in header.value.errors()] == [e["msg"] for e in rule_set.value.errors()]


def test_the_defaults_agree() -> None:
    header = Start()
    assert header.rule_set() == RuleSet()
    assert RuleOptions() == Start.of(RuleSet()).rules
    request = CreateTable()
    assert (request.players, request.dealer, request.pass_sixes, request.must_beat) == (2, 0, True, False)
    assert (RuleSet().pass_sixes, RuleSet().must_beat) == (True, False)


def test_a_rule_set_says_who_plays_and_the_options_and_nothing_the_rules_decide() -> None:
    # A number the rules decide, restated here (hand_size wrote 36 // players), goes on saying the old rule when
    # the pack or the deal is edited: the deal's sizes are the deal's (rules.core.deal_in_turn).
    assert set(RuleSet.model_fields) == {"players", "dealer", "pass_sixes", "must_beat"}
    assert [name for name, value in vars(RuleSet).items() if isinstance(value, property)] == ["first_seat"]
