"""Thousands of random games over every number of players and rule option.

Three things are checked: every game ends with an outcome consistent with the final
position (who holds cards, the tie check, the repetition count); the search path
(:mod:`rules.core` on a ``State``) and the machine path (:class:`rules.game.Game`)
agree ply by ply; and :func:`rules.core.undo` restores a state exactly, one move at a
time and all the way back to the deal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules import core
from rules.cards import CODES, PACK_SIZE, codes_of_mask
from rules.events import ChooseTrump, Position
from rules.game import Game
from rules.machine import MACHINE
from rules.options import RuleSet
from rules.outcome import Outcome

ALL_CARDS = (1 << PACK_SIZE) - 1

RULE_OPTIONS = [
    (players, pass_sixes, must_beat)
    for players in (2, 3, 4)
    for pass_sixes in (True, False)
    for must_beat in (False, True)
]


def rules_for(seed: int) -> RuleSet:
    players, pass_sixes, must_beat = RULE_OPTIONS[seed % len(RULE_OPTIONS)]
    return RuleSet(players=players, dealer=seed % players, pass_sixes=pass_sixes, must_beat=must_beat)


def dealt_game(seed: int) -> Game:
    """A game of rule set ``seed`` after a random trump choice and the seed's deal."""
    rng = random.Random(seed)
    game = Game(rules_for(seed), seed=seed)
    while game.phase == "trump_choice":
        game.push(rng.choice(game.legal_moves()))
    game.push(game.sample_deal())
    return game


def snapshot(state: core.State, *, with_seen: bool = True) -> tuple[object, ...]:
    """Everything a core state holds, compared by value.

    The repetition memory grows with the game; comparing it at every ply would make a
    long game quadratic, so ``with_seen=False`` gives only its size and the count of the
    current position (the entries a move can change), and the tests compare it whole now
    and then.
    """
    seen = dict(state.seen) if with_seen else (len(state.seen), state.seen.get(state.key()))
    return (
        state.trumps,
        state.must_beat,
        tuple(state.hands),
        state.pile,
        state.to_act,
        state.phase,
        state.out_order,
        state.outcome,
        seen,
    )


def assert_cards_conserved(state: core.State) -> None:
    seen = 0
    for hand in state.hands:
        assert hand & seen == 0
        seen |= hand
    for card in state.pile:
        assert not seen >> card & 1
        seen |= 1 << card
    assert seen == ALL_CARDS


def beats_plainly(card: int, top: int, trump: int) -> bool:
    """Rules §2.4, for checking the end of a game (cards are ``suit * 9 + rank``)."""
    if card // 9 == top // 9:
        return card % 9 > top % 9
    return card // 9 == trump


def assert_consistent_outcome(state: core.State) -> None:
    """The outcome is the one §3 gives for the final position."""
    assert state.phase == core.FINISHED
    assert state.outcome is not None
    holders = [seat for seat, hand in enumerate(state.hands) if hand]
    returns = core.returns(state)
    if state.outcome.reason == "repetition":
        assert state.outcome.result == "draw"
        assert len(holders) >= 2
        # the position that arose for the third time is the last one, when the turn passed
        repeated = (state.to_act, core.RESPOND if state.pile else core.LEAD, *state.hands, *state.pile)
        assert state.seen[repeated] == 3
        assert sorted(state.seen.values())[-2:] != [3, 3]
        assert sorted(state.out_order) == sorted(set(range(state.players)) - set(holders))
        assert returns == [0.0] * state.players
        return
    assert len(holders) == 1  # the tie check: only one player still holds cards
    last = holders[0]
    assert sorted(state.out_order) == sorted(set(range(state.players)) - {last})
    hand = state.hands[last]
    draws = hand.bit_count() == 1 and beats_plainly(hand.bit_length() - 1, state.pile[-1], state.trumps[last])
    if draws:
        assert state.outcome == Outcome.draw("tie_check", state.out_order)
        assert returns == [0.0] * state.players
    else:
        assert state.outcome == Outcome.loss(last, state.out_order)
        assert returns == [-1.0 if seat == last else 1.0 for seat in range(state.players)]


def play_core(state: core.State, rng: random.Random, max_plies: int = 300_000) -> Iterator[int]:
    """Random legal moves through the search path until the end; yields each move played."""
    for _ in range(max_plies):
        if state.phase == core.FINISHED:
            return
        assert state.hands[state.to_act], "the seat to act holds no cards"
        move = rng.choice(core.legal_moves(state))
        counted = core.apply(state, move)[6]
        # The repetition rule counts the position a turn starts in: core.count_position names the phase itself
        # (lead on an empty pile, else respond), and must name the one the table's rows then go to.
        assert counted is None or state.outcome is not None or counted == state.key(), (
            f"the repetition rule counted {counted}, but the turn starts in {state.key()}: see core.count_position"
        )
        yield move
    raise AssertionError(f"no end after {max_plies} plies")


GAMES_PER_BLOCK = 250
BLOCKS = 4


@pytest.mark.parametrize("block", range(BLOCKS))
def test_thousands_of_random_games_end_with_a_consistent_outcome(block: int) -> None:
    endings: dict[str, int] = {}
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        state = dealt_game(seed).core_state()
        assert_cards_conserved(state)
        for plies, _ in enumerate(play_core(state, random.Random(seed)), start=1):
            if plies % 97 == 0:
                assert_cards_conserved(state)
        assert_cards_conserved(state)
        assert_consistent_outcome(state)
        assert core.legal_moves(state) == ()
        assert state.outcome is not None
        kind = state.outcome.reason or state.outcome.result
        endings[kind] = endings.get(kind, 0) + 1
    assert sum(endings.values()) == GAMES_PER_BLOCK
    assert endings.get("loss", 0) > 0


def move_tuple(state: core.State, move: int) -> tuple[str, int, str | None, int | None]:
    """A core move as (type, seat, card, count), the fields of the game's event."""
    seat = state.to_act
    if move == core.TAKE:
        return ("take", seat, None, core.take_count(state.pile[-1], len(state.pile), state.trumps[seat]))
    return (core.move_kind(state.phase, move), seat, CODES[move], None)


def event_tuple(event: Any) -> tuple[str, int, str | None, int | None]:
    return (event.type, event.seat, getattr(event, "card", None), getattr(event, "count", None))


def play_both(game: Game, rng: random.Random) -> None:
    """Random moves through the game and, in parallel, through core; compared at every ply."""
    state = game.core_state()
    for ply in range(1_000_000):
        if ply % 50 == 0 or state.phase == core.FINISHED:
            assert snapshot(game.core_state()) == snapshot(state)
        moves = core.legal_moves(state)
        assert [move_tuple(state, move) for move in moves] == [event_tuple(e) for e in game.legal_moves()]
        view = game.state()
        assert view.pile == [CODES[card] for card in state.pile]
        assert view.hands == [codes_of_mask(hand) for hand in state.hands]
        assert view.phase == core.PHASE_NAMES[state.phase]
        if state.phase == core.FINISHED:
            assert view.to_act is None
            assert game.outcome is not None and state.outcome is not None
            assert game.outcome == state.outcome  # the same outcome type on both paths
            assert game.outcome.out_order == list(state.out_order)
            return
        assert view.to_act == state.to_act
        move = rng.choice(moves)
        game.push(game.legal_moves()[moves.index(move)])
        core.apply(state, move)


# One seed per entry of RULE_OPTIONS; seed 10's game runs 27,000 plies, so 34 (same options) stands in.
AGREE_SEEDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 34, 11]


@pytest.mark.parametrize("seed", AGREE_SEEDS)
def test_the_search_path_and_the_machine_agree_ply_by_ply(seed: int) -> None:
    play_both(dealt_game(seed), random.Random(seed))


def small_position(rng: random.Random) -> Position:
    """A few cards a seat and some on the pile: games that often end by repetition."""
    players = rng.choice((2, 3, 4))
    pack = list(CODES)
    rng.shuffle(pack)
    hands = [[pack.pop() for _ in range(rng.randint(1, 4))] for _ in range(players)]
    pile = [pack.pop() for _ in range(rng.choice((0, 1, 2, 4)))]
    phase = "lead" if not pile else rng.choice(("respond", "second"))
    trumps = rng.sample("SHDC", players)
    return Position(trumps=trumps, hands=hands, pile=pile, to_act=rng.randrange(players), phase=phase)  # type: ignore[arg-type]


def test_the_search_path_and_the_machine_agree_from_positions() -> None:
    endings: dict[str, int] = {}
    for seed in range(300):
        rng = random.Random(seed)
        position = small_position(rng)
        game = Game.from_position(position, RuleSet(players=len(position.hands), must_beat=seed % 3 == 0))
        play_both(game, rng)
        assert game.outcome is not None
        kind = game.outcome.reason or game.outcome.result
        endings[kind] = endings.get(kind, 0) + 1
    assert set(endings) == {"loss", "tie_check", "repetition"}


def test_the_machine_itself_and_the_compiled_step_agree_move_for_move() -> None:
    """The ``transitions`` machine run on a copy (:meth:`rules.machine.TableMachine.run`) and the
    compiled step search and Game use end every legal move of games that often repeat alike."""
    compared = repeated = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = Game.from_position(small_position(rng)).core_state()
        while state.phase != core.FINISHED:
            moves = core.legal_moves(state)
            for move in moves:
                after, machine = state.copy(), state.copy()
                core.apply(after, move)
                MACHINE.run(machine, core.move_kind(state.phase, move) or "", move)
                assert snapshot(machine) == snapshot(after)
                assert (machine.counted, machine.outcome) == (after.counted, after.outcome)
                compared += 1
                repeated += after.outcome is not None and after.outcome.reason == "repetition"
            core.apply(state, moves[int(rng.random() * len(moves))])
    assert compared > 2_000 and repeated > 0


@pytest.mark.parametrize("seed", range(12))
def test_undo_restores_the_state_exactly(seed: int) -> None:
    game = dealt_game(1000 + seed)
    state = game.core_state()
    start = snapshot(state)
    rng = random.Random(seed)
    tokens: list[core.Undo] = []
    while state.phase != core.FINISHED:
        whole = len(tokens) % 64 == 0
        before = snapshot(state, with_seen=whole)
        move = rng.choice(core.legal_moves(state))
        token = core.apply(state, move)
        after = snapshot(state, with_seen=whole)
        core.undo(state, token)
        assert snapshot(state, with_seen=whole) == before
        tokens.append(core.apply(state, move))
        assert snapshot(state, with_seen=whole) == after
    for token in reversed(tokens):  # all the way back to the deal
        core.undo(state, token)
    assert snapshot(state) == start


def test_a_copy_is_independent_of_its_original() -> None:
    state = dealt_game(7).core_state()
    copy = state.copy()
    before = snapshot(state)
    for _ in play_core(copy, random.Random(7)):
        pass
    assert snapshot(state) == before
    assert snapshot(copy) != before


@pytest.mark.parametrize("seed", range(12))
def test_the_game_pops_back_to_the_deal(seed: int) -> None:
    game = dealt_game(2000 + seed)
    start = (game.state(), game.events, snapshot(game.core_state()))
    rng = random.Random(seed)
    plies = 0
    while not game.is_over() and plies < 400:
        game.push(rng.choice(game.legal_moves()))
        plies += 1
    for _ in range(plies):
        game.pop()
    assert (game.state(), game.events, snapshot(game.core_state())) == start


def test_the_trump_choice_and_deal_can_be_popped_too() -> None:
    game = Game(RuleSet(players=3, dealer=2), seed=5)
    empty = game.state()
    game.push(ChooseTrump(seat=0, suit="D"))
    game.push(ChooseTrump(seat=1, suit="S"))
    game.push(ChooseTrump(seat=2, suit="C"))
    game.push(game.sample_deal())
    game.push(game.legal_moves()[0])
    for _ in range(5):
        game.pop()
    assert game.state() == empty
    assert game.events == []
    with pytest.raises(IndexError):
        game.pop()
