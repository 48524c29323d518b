"""Tests that pin behaviour a mutation run found unpinned (see docs/machine.md, "Mutation testing")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import core, validation
from rules.cards import FULL_PACK_MASK, PACK_SIZE, RANKS_PER_SUIT, codes_of_mask
from rules.events import Beat, ChooseTrump, Deal, Lead, Position, SixPassed, Took
from rules.game import Game, IllegalEvent
from rules.log import read_log_file, write_log
from rules.machine import build_machine
from rules.options import RuleSet
from rules.refusal import Refusal
from rules.table import TRANSITIONS
from rules.validation import position_error


def _dealt(players: int, seed: int) -> Game:
    game = Game(RuleSet(players=players, dealer=players - 1), seed=seed)
    for suit in "SHDC"[:players]:
        game.push(ChooseTrump(seat=game.to_act, suit=suit))  # type: ignore[arg-type]
    game.push(game.sample_deal())
    return game


@pytest.mark.parametrize("seed", range(6))
def test_public_knowledge_is_exactly_the_passed_sixes_and_the_taken_cards_not_yet_played(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    game = Game(RuleSet(players=players, dealer=players - 1), seed=seed)
    for suit in "SHDC"[:players]:
        game.push(ChooseTrump(seat=game.to_act, suit=suit))  # type: ignore[arg-type]
    known = [set[str]() for _ in range(players)]
    for note in game.push(game.sample_deal()):
        if isinstance(note, SixPassed):
            known[note.to_seat].add(note.card)
    plies = 0
    while not game.is_over() and plies < 300:
        move = rng.choice(game.legal_moves())
        notes = game.push(move)
        plies += 1
        if move.type == "take":
            took = next(note for note in notes if isinstance(note, Took))
            known[took.seat] |= set(took.cards)
        else:
            known[move.seat].discard(move.card)  # type: ignore[union-attr]
        view = game.view(None)
        assert [set(cards) for cards in view.known] == known
        assert view.out_of_play == []  # a dealt game has every card in play
    assert any(known) or plies < 5


def test_a_dealt_game_has_no_card_out_of_play_not_even_card_0() -> None:
    game = _dealt(2, seed=3)
    assert game.view(0).out_of_play == [] and game.view(None).out_of_play == []


def test_a_position_lists_exactly_the_absent_cards_as_out_of_play() -> None:
    position = Position(trumps=["S", "H"], hands=[["6S", "AD"], ["7H"]], pile=["TC"], to_act=1, phase="respond")
    out = Game.from_position(position).view(None).out_of_play
    assert out == codes_of_mask(FULL_PACK_MASK & ~(1 << 0 | 1 << 26 | 1 << 10 | 1 << 31))
    assert "6S" not in out and len(out) == 32


def test_a_seeded_game_deals_from_its_seed() -> None:
    deals = {Game(RuleSet(), seed=41).sample_deal().hands.__repr__() for _ in range(3)}
    assert len(deals) == 1
    expected = core.deal_pack(2, 0, random.Random(41))
    assert Game(RuleSet(), seed=41).sample_deal().hands == [[card.code for card in hand] for hand in expected]
    assert Game(RuleSet(), seed=42).sample_deal() != Game(RuleSet(), seed=41).sample_deal()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_from_position_defaults_to_the_rules_of_its_number_of_players(players: int) -> None:
    hands = [["6S"], ["7S"], ["8S"], ["9S"]][:players]
    position = Position(trumps=["S", "H", "D", "C"][:players], hands=hands, pile=[], to_act=0, phase="lead")  # type: ignore[arg-type]
    game = Game.from_position(position)
    assert game.rules == RuleSet(players=players)
    assert len(game.state().hands) == players


# Found by a seeded search of random three-player games: the 59th move, a lead, brings the
# position after it round for the third time.
_REPEATED_BY_A_LEAD = [
    "KH",
    "take",
    "JC",
    "TH",
    "6S",
    "take",
    "KS",
    "take",
    "KH",
    "take",
    "9C",
    "take",
    "KH",
    "take",
    "9H",
    "take",
    "KS",
    "take",
    "8H",
    "take",
    "6S",
    "take",
    "KH",
    "KS",
    "6D",
    "take",
    "8H",
    "TH",
    "9C",
    "6D",
    "6S",
    "8S",
    "JC",
    "take",
    "take",
    "KH",
    "KS",
    "take",
    "JC",
    "KS",
    "KH",
    "take",
    "8H",
    "9H",
    "JC",
    "take",
    "TC",
    "JC",
    "6D",
    "take",
    "8H",
    "6D",
    "8S",
    "take",
    "JC",
    "8S",
    "9H",
    "take",
    "8H",
]


def test_the_repetition_draw_can_be_completed_by_a_lead() -> None:
    position = Position(
        trumps=["H", "S", "D"],
        hands=[["6S", "TH", "9C", "KH"], ["9H", "7D", "6D", "8S"], ["8H", "KS", "JC", "TC"]],
        pile=[],
        to_act=0,
        phase="lead",
    )
    game = Game.from_position(position)
    for number, code in enumerate(_REPEATED_BY_A_LEAD, start=1):
        assert not game.is_over(), number
        move = next(
            m for m in game.legal_moves() if (m.type == "take") == (code == "take") and getattr(m, "card", code) == code
        )
        notes = game.push(move)
    assert move.type == "lead"
    assert game.outcome is not None and (game.outcome.result, game.outcome.reason) == ("draw", "repetition")
    assert notes[-1].type == "game_over"


@pytest.mark.parametrize(
    ("trumps", "pile", "card", "code", "reason"),
    [
        # same suit, lower, and the lower card has the higher index in no other way
        (["S", "H"], ["KS"], "7S", "lower_card", "7S is lower than KS"),
        (["H", "S"], ["9C"], "8C", "lower_card", "8C is lower than 9C"),
        # the top card is the responder's trump: a card of another suit, higher or lower in the pack order
        (["S", "H"], ["7H"], "AS", "higher_trump_only", "7H is your trump, only a higher trump beats it"),
        (["S", "H"], ["7H"], "AC", "higher_trump_only", "7H is your trump, only a higher trump beats it"),
        # another suit and not the responder's trump, whichever of the two comes first in the pack
        (["S", "H"], ["9S"], "AD", "not_suit_nor_trump", "not the same suit and not your trump"),
        (["S", "H"], ["9C"], "AD", "not_suit_nor_trump", "not the same suit and not your trump"),
    ],
)
def test_each_failed_beat_names_its_own_reason(
    trumps: list[str], pile: list[str], card: str, code: str, reason: str
) -> None:
    position = Position(trumps=trumps, hands=[["6D"], [card, "6C"]], pile=pile, to_act=1, phase="respond")  # type: ignore[arg-type]
    game = Game.from_position(position)
    with pytest.raises(IllegalEvent) as refused:
        game.push(Beat(seat=1, card=card))
    assert str(refused.value) == f"seat 1 cannot beat {pile[-1]} with {card}: {reason}"
    assert refused.value.refusal.code == code and refused.value.refusal.clause == "2.4"
    assert refused.value.refusal.cards == (pile[-1], card) and refused.value.refusal.seat == 1


def test_every_beat_today_s_rules_refuse_names_one_of_the_three_reasons_of_rule_2_4() -> None:
    # The reasons are checked against core.BEATERS (so that an edited beats leaves none saying the old rule): under
    # today's beats each refused beat keeps its reason, and no player reads the generic does_not_beat.
    for trump in range(4):
        for top in range(PACK_SIZE):
            for card in range(PACK_SIZE):
                if core.BEATERS[trump][top] >> card & 1 or card == top:
                    continue
                same_suit = card // RANKS_PER_SUIT == top // RANKS_PER_SUIT
                top_is_trump = top // RANKS_PER_SUIT == trump
                wanted = "lower_card" if same_suit else "higher_trump_only" if top_is_trump else "not_suit_nor_trump"
                assert validation.beat_refusal(1, card, top, trump).code == wanted, (trump, top, card)


def test_only_the_seat_to_act_sees_legal_moves_in_its_view() -> None:
    game = _dealt(3, seed=5)
    seat = game.to_act
    assert seat is not None
    assert game.view(seat).legal_moves == game.legal_moves() != []
    assert all(game.view(other).legal_moves == [] for other in range(3) if other != seat)
    assert game.view(None).legal_moves == []


def test_a_snapshot_restores_the_game_and_cannot_be_changed() -> None:
    game = _dealt(2, seed=8)
    for _ in range(5):
        game.push(game.legal_moves()[0])
    snapshot = game.snapshot()
    assert Game.from_snapshot(snapshot).state() == game.state()
    with pytest.raises(ValueError, match="frozen"):
        snapshot.seed = 9  # type: ignore[misc]


def test_a_position_after_the_first_event_is_refused() -> None:
    position = Position(trumps=["S", "H"], hands=[["6S"], ["7H"]], pile=[], to_act=0, phase="lead")
    game = Game.from_position(position)
    with pytest.raises(IllegalEvent, match="a position can only start a game, right after the header"):
        game.push(position)
    assert game.events == [position]


def test_the_move_masks_of_beat_and_take_make_the_mask_of_respond() -> None:
    rng = random.Random(2)
    for must_beat in (False, True):
        for _ in range(200):
            cards = rng.sample(range(36), 7)
            state = core.State.from_position((0, 1), [cards[:3], cards[3:6]], [cards[6]], 1, core.RESPOND, must_beat)
            assert core.beat_mask(state) | core.take_mask(state) == core.legal_mask(state)


def test_refusal_gives_the_rule_or_none() -> None:
    game = _dealt(2, seed=4)
    assert game.refusal(game.legal_moves()[0]) is None
    assert str(game.refusal(Beat(seat=game.to_act or 0, card="AS"))) == (
        f"seat {game.to_act} cannot beat: the pile is empty, seat {game.to_act} must lead"
    )


def test_a_move_before_the_deal_says_what_is_awaited() -> None:
    game = Game(RuleSet(players=2))
    with pytest.raises(IllegalEvent, match=r"^seat 1 cannot lead: the players are still choosing trumps$"):
        game.push(Lead(seat=1, card="AS"))
    game.push(ChooseTrump(seat=1, suit="S"))
    game.push(ChooseTrump(seat=0, suit="H"))
    with pytest.raises(IllegalEvent, match=r"^seat 1 cannot lead: the cards have not been dealt$"):
        game.push(Lead(seat=1, card="AS"))


def test_a_second_deal_is_refused_as_already_dealt() -> None:
    game = Game(RuleSet(), seed=4)
    game.push(ChooseTrump(seat=1, suit="H"))
    game.push(ChooseTrump(seat=0, suit="S"))
    deal = game.sample_deal()
    game.push(deal)
    with pytest.raises(IllegalEvent) as refused:
        game.push(deal)
    assert (refused.value.refusal.code, refused.value.refusal.clause) == ("dealt", "2.2")
    assert len(game.events) == 3


def test_a_log_written_to_a_file_reads_back_as_the_same_game(tmp_path: Path) -> None:
    game = Game.from_position(
        Position(trumps=["S", "H"], hands=[["7D", "8D"], ["6H", "AS"]], pile=[], to_act=0, phase="lead")
    )
    game.push(game.legal_moves()[0])
    write_log(game, tmp_path / "game.jsonl")
    again = read_log_file(tmp_path / "game.jsonl")
    assert (again.header, again.events, again.state()) == (game.header, game.events, game.state())


# --- Found by the sample of 40 mutants per module (2026-12-03) ---------------------------------------


def test_a_game_without_rules_plays_the_default_rules() -> None:
    game = Game(seed=3)
    assert game.rules == RuleSet() and game.state() == Game(RuleSet(), seed=3).state()
    assert game.to_act == RuleSet().first_seat


def test_a_draw_is_refused_to_a_seat_out_of_play_or_of_the_game_and_before_the_deal() -> None:
    assert _code(Game(RuleSet(players=3)).draw_refusal(0)) == "before_play"
    position = Position(
        trumps=["S", "H", "D"], hands=[["6S"], ["7H", "8H"], []], pile=["9C"], to_act=1, phase="respond"
    )
    game = Game.from_position(position)
    assert game.draw_refusal(0) is None and game.draw_refusal(1) is None
    assert _code(game.draw_refusal(2)) == "draw_out"
    assert _code(game.draw_refusal(3)) == "not_a_seat"


def _code(refusal: Refusal | None) -> str | None:
    return None if refusal is None else refusal.code


def test_a_setup_event_that_fails_half_way_leaves_the_game_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(state: core.State, suit: object) -> None:
        state.to_act = (state.to_act + 1) % state.players  # half the work, then a failure
        raise RuntimeError("a rule that breaks")

    monkeypatch.setattr(core, "record_trump", broken)
    machine = build_machine()
    machine.compiled = core.compile_table(TRANSITIONS)  # compiled with the broken rule
    game = Game(RuleSet(), seed=2, machine=machine)
    before = (game.state(), game.view(None), game.to_act, len(game.events))
    with pytest.raises(RuntimeError, match="breaks"):
        game.push(ChooseTrump(seat=1, suit="H"))
    assert (game.state(), game.view(None), game.to_act, len(game.events)) == before


@pytest.mark.parametrize(
    ("players", "position", "code"),
    [
        (
            2,
            Position(trumps=["S", "H", "D"], hands=[["6S"], ["7H"], ["8D"]], pile=[], to_act=0, phase="lead"),
            "position_players",
        ),
        (2, Position(trumps=["S", "H"], hands=[["6S"], ["7H"]], pile=[], to_act=2, phase="lead"), "position_to_act"),
        (
            2,
            Position(trumps=["S", "H"], hands=[["6S"], ["6S", "7H"]], pile=[], to_act=0, phase="lead"),
            "position_card_twice",
        ),
        (2, Position(trumps=["S", "H"], hands=[["6S"], ["7H"]], pile=["8D"], to_act=0, phase="lead"), "position_pile"),
    ],
)
def test_a_game_refuses_a_position_it_cannot_start_from(players: int, position: Position, code: str) -> None:
    game = Game(RuleSet(players=players))
    assert _code(game.refusal(position)) == code
    with pytest.raises(IllegalEvent):
        game.push(position)
    assert game.events == [] and game.phase == "trump_choice"


def test_position_error_refuses_a_seat_to_act_that_the_position_does_not_have() -> None:
    refused = position_error((0, 1), ((0,), (10,)), (), to_act=2, phase=core.LEAD)
    assert refused is not None and (refused.code, refused.message) == ("position_to_act", "to_act 2 is not a seat")
    assert position_error((0, 1), ((0,), (10,)), (), to_act=1, phase=core.LEAD) is None


def test_a_deal_before_the_trumps_are_chosen_is_refused_as_such() -> None:
    game = Game(RuleSet(), seed=4)
    deal = Deal(hands=[[card.code for card in hand] for hand in core.deal_pack(2, 1, random.Random(4))])
    assert _code(game.refusal(deal)) == "deal_before_trumps"


def test_a_restored_state_shares_nothing_with_the_state_it_copied() -> None:
    game = _dealt(2, seed=6)
    original = game.core_state()
    seen = dict(original.seen)
    state = core.State.setup(2, 0)
    state.restore(original)
    while not state.finished:
        core.apply(state, core.legal_moves(state)[0])
    assert state.outcome is not None and original.seen == seen and not original.finished


def test_the_returns_of_a_game_are_one_for_the_winners_and_nothing_in_a_draw() -> None:
    lost = core.State.from_position((0, 1, 2), ((0,), (10,), (20, 21)), (), 0, core.LEAD)
    core.apply(lost, 0)
    core.apply(lost, 10)  # seats 0 and 1 are out: seat 2 holds two cards and loses the tie check
    assert core.returns(lost) == [1.0, 1.0, -1.0]
    drawn = core.State.from_position((0, 1), ((0,), (10,)), (), 0, core.LEAD)
    core.draw_by_agreement(drawn, None)
    assert drawn.outcome is not None and drawn.outcome.reason == "agreement"
    assert core.returns(drawn) == [0.0, 0.0]
