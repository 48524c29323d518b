"""The exact solver agrees with plain minimax over the real rules, and the perfect player keeps its wins."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rules import core
from rules.cards import CODES, Card, cards_of_mask
from rules.convert import move_of
from rules.events import Position
from rules.game import Game
from rules.players import GreedyPlayer, PerfectPlayer, Player, RandomPlayer, Solver, SolverLimit, advice
from rules.players.base import choose_move
from rules.players.perfect import FORCED_WIN
from rules.players.solver import _order

# Positions found by search in which the full game tree reaches draws by repetition (third
# occurrence): (hands, pile, trumps, to_act, phase), cards as pack indices.
REPEATING = [
    (((1, 21, 29), (14,)), (11, 17), (1, 0), 0, core.SECOND),
    (((4, 6, 16), (23,)), (34, 32), (3, 0), 1, core.RESPOND),
    (((7, 35), (13, 33)), (1, 2), (1, 0), 0, core.RESPOND),
    (((17,), (21, 23, 35)), (4, 8), (2, 1), 1, core.SECOND),
    (((19, 33), (8, 11)), (12, 24), (1, 3), 1, core.RESPOND),
    (((0, 4, 5), (11,)), (33, 16), (3, 2), 0, core.SECOND),
    (((19, 29, 34), (13, 16)), (4,), (0, 2), 1, core.RESPOND),
]


class TooLarge(Exception):
    """The brute force met more nodes than its budget."""


def brute_force_value(state: core.State, seat: int | None = None, budget: list[int] | None = None) -> int:
    """Plain minimax over the real rules (third occurrence a draw, via core.apply): no table, no pruning.

    The value is for ``seat`` (default: the seat to act), with the history ``state`` carries.
    """
    budget = budget if budget is not None else [BRUTE_FORCE_NODES]
    budget[0] -= 1
    if budget[0] < 0:
        raise TooLarge
    me = state.to_act if seat is None else seat
    if state.outcome is not None:
        return int(core.returns(state)[me])
    values = []
    for move in core.legal_moves(state):
        token = core.apply(state, move)
        values.append(brute_force_value(state, me, budget))
        core.undo(state, token)
    return max(values) if state.to_act == me else min(values)


BRUTE_FORCE_NODES = 200_000


def random_position(rng: random.Random, cards: int, most_in_pile: int = 3) -> core.State:
    pile = rng.randint(0, most_in_pile)
    mine = rng.randint(1, cards - 1)
    drawn = rng.sample(range(36), cards + pile)
    phase = core.LEAD if pile == 0 else rng.choice((core.RESPOND, core.SECOND))
    return core.State.from_position(
        rng.sample(range(4), 2), [drawn[:mine], drawn[mine:cards]], drawn[cards:], rng.randrange(2), phase
    )


def repetition_draws(state: core.State) -> int:
    """How many leaves of the full game tree are draws by repetition."""
    if state.outcome is not None:
        return int(state.outcome is not None and state.outcome.reason == "repetition")
    total = 0
    for move in core.legal_moves(state):
        token = core.apply(state, move)
        total += repetition_draws(state)
        core.undo(state, token)
    return total


def small_position(rng: random.Random) -> core.State:
    """A random position the brute force can search: 2-4 cards in hand, at most 5 cards in play."""
    cards = rng.randint(2, 4)
    return random_position(rng, cards, most_in_pile=5 - cards)


def check_against_brute_force(state: core.State, solver: Solver | None = None) -> int:
    solution = (solver or Solver()).solve(state)
    assert solution.value == brute_force_value(state.copy())
    for move, value in solution.moves:
        child = state.copy()
        core.apply(child, move)
        assert value == brute_force_value(child, state.to_act), core.move_code(move)
    assert solution.value == max(value for _, value in solution.moves)
    assert dict(solution.moves)[solution.best] == solution.value
    return solution.value


def test_solver_agrees_with_brute_force_on_random_small_positions() -> None:
    rng = random.Random(2024)
    values = []
    for _ in range(300):
        values.append(check_against_brute_force(small_position(rng)))
    assert set(values) == {-1, 0, 1}  # the sample holds wins, draws and losses


def test_the_exact_search_alone_agrees_with_brute_force() -> None:
    # Without the proof-number search every value comes from the depth-bounded Boolean
    # search, its late move reductions included.
    rng = random.Random(99)
    for _ in range(200):
        check_against_brute_force(small_position(rng), Solver(proof_numbers=False))


@pytest.mark.parametrize("position", REPEATING)
def test_solver_agrees_with_brute_force_where_positions_repeat(
    position: tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, int], int, int],
) -> None:
    hands, pile, trumps, to_act, phase = position
    state = core.State.from_position(trumps, hands, pile, to_act, phase)
    assert repetition_draws(state.copy()) > 0
    check_against_brute_force(state)


def counted_positions(state: core.State, found: set[core.PositionKey]) -> set[core.PositionKey]:
    """Every position the rules count on some line of play from ``state`` (its whole game tree)."""
    for move in core.legal_moves(state):
        token = core.apply(state, move)
        if state.outcome is None:
            if token[6] is not None and token[6] not in found:
                found.add(token[6])
                counted_positions(state, found)
            elif token[6] is None:
                counted_positions(state, found)
        core.undo(state, token)
    return found


@pytest.mark.parametrize("position", REPEATING[:3])
def test_values_count_repetitions_from_the_position_whatever_history_the_state_brings(
    position: tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, int], int, int],
) -> None:
    hands, pile, trumps, to_act, phase = position
    fresh = core.State.from_position(trumps, hands, pile, to_act, phase)
    played = fresh.copy()
    played.seen = dict.fromkeys(counted_positions(fresh.copy(), set()), 2)  # each came round twice before
    assert Solver().value(played) == Solver().value(fresh) == brute_force_value(fresh.copy())
    assert Solver().solve(played) == Solver().solve(fresh)


def test_solver_value_alone_matches_solve() -> None:
    rng = random.Random(7)
    for _ in range(100):
        state = random_position(rng, rng.randint(2, 6))
        assert Solver().value(state) == Solver().solve(state).value


# Draws among random 8-card positions (benchmarks.solver, seed 3): trumps as suit indices, the two
# hands, the pile from the bottom, the seat to act; all in the second-card phase.
DRAWS = [
    ((1, 0), "KH 7D 9D QC", "6S TH 6D KD", "7H TC", 1),
    ((2, 1), "KS 6H TD KD", "TS 8H JH 9C", "QC 6S 6C", 1),
    ((2, 1), "TS AS 8D 9C", "6S 9S 6H 9H", "QD JC", 1),
    ((2, 3), "6S JH JD KD", "7H 7C 8C TC", "KH AC 6H", 1),
]


@pytest.mark.parametrize("position", DRAWS)
def test_draws_are_settled_by_checked_disproofs(position: tuple[tuple[int, int], str, str, str, int]) -> None:
    # The exact search alone settles a not-win only once no branch meets its depth bound, and on
    # these draws it had not within 3,000,000 nodes; with the checked disproofs none takes 50,000.
    trumps, first, second, pile, to_act = position
    cards = [[Card.parse(code) for code in text.split()] for text in (first, second, pile)]
    state = core.State.from_position(trumps, cards[:2], cards[2], to_act, core.SECOND)
    assert Solver(max_nodes=100_000).value(state) == 0


def test_solver_refuses_more_than_two_players_and_finished_games() -> None:
    three = core.State.from_position((0, 1, 2), [(0,), (10,), (20,)], (), 0, core.LEAD)
    with pytest.raises(ValueError, match="duel only"):
        Solver().solve(three)
    two = core.State.from_position((0, 1), [(30,), (31,)], (), 0, core.LEAD)
    core.apply(two, 30)
    assert two.finished
    assert Solver().value(two) in (-1, 0, 1)


def test_solver_budget() -> None:
    cards = random.Random(4).sample(range(36), 18)  # a full 9 + 9 duel: far beyond 5,000 nodes
    state = core.State.from_position((0, 1), [cards[:9], cards[9:]], (), 0, core.LEAD)
    solver = Solver(max_nodes=5000)
    with pytest.raises(SolverLimit, match="more than 5000 nodes"):
        solver.value(state)
    assert solver.nodes <= 5000


def as_position(state: core.State) -> Position:
    """The duel position of a lean search state, as a position event."""
    return Position(
        trumps=["SHDC"[t] for t in state.trumps],
        hands=[[CODES[c] for c in core.moves_of_mask(h)] for h in state.hands],
        pile=[CODES[c] for c in state.pile],
        to_act=state.to_act,
        phase=core.PHASE_NAMES[state.phase],  # type: ignore[arg-type]
    )


def won_positions(count: int, cards: int) -> list[Position]:
    """Duel positions the solver proves won for the seat to act."""
    rng = random.Random(99)
    found = []
    while len(found) < count:
        state = random_position(rng, cards)
        if Solver(seconds=5).value(state) == 1:
            found.append(as_position(state))
    return found


@pytest.mark.parametrize("opponent", [GreedyPlayer, RandomPlayer])
def test_perfect_never_lets_a_proven_win_go(opponent: type[Player]) -> None:
    for number, position in enumerate(won_positions(12, cards=7)):
        game = Game.from_position(position)
        seat = position.to_act
        bots: list[Player] = [opponent(number), opponent(number)]  # type: ignore[call-arg]
        # The solver's full budget only up to the cards of the start: a take on the way adds cards,
        # and the proven win must still be played by the solver there.
        perfect = bots[seat] = PerfectPlayer(
            seed=number, solver_cards=7, probe_cards=7, solver_seconds=10, mcts_seconds=None, mcts_iterations=10
        )
        announced = []
        while not game.is_over():
            to_act = game.to_act
            assert to_act is not None
            game.push(choose_move(bots[to_act], game.view(to_act), game.position_counts()))
            if to_act == seat:
                announced.append(perfect.announcement())
        # The win is announced once, at its first move.
        assert announced[0] == FORCED_WIN and announced.count(FORCED_WIN) == 1, position
        outcome = game.outcome
        assert outcome is not None and outcome.result == "loss" and outcome.loser != seat, position
        # Every one of its moves came from the solver: a proven win is played out by proof, not by MCTS.
        assert perfect.solved_moves == len(announced) and perfect.unsolved_moves == 0, position


def test_a_value_is_exact_before_every_move_is_settled() -> None:
    # Under a small budget the position's value comes first: it and every move value the solver
    # reports agree with the brute force, and the moves it could not settle are listed as such.
    rng = random.Random(31)
    checked = partial = 0
    while checked < 300:
        state = small_position(rng)
        probe = Solver()
        probe.value(state)  # the nodes the value takes: a budget just above leaves moves open
        solution = Solver(max_nodes=probe.nodes + rng.randint(1, 8)).solve(state)
        try:
            assert solution.value == brute_force_value(state.copy())
            for move, value in solution.moves:
                child = state.copy()
                core.apply(child, move)
                assert value == brute_force_value(child, state.to_act), core.move_code(move)
        except TooLarge:
            continue
        checked += 1
        assert set(dict(solution.moves)) | set(solution.unsettled) == set(core.legal_moves(state))
        assert not set(dict(solution.moves)) & set(solution.unsettled)
        if solution.best is not None:
            assert dict(solution.moves)[solution.best] == solution.value
        assert solution.value >= max((value for _, value in solution.moves), default=-1)
        partial += bool(solution.unsettled)
    assert partial >= 30  # the budgets leave moves open often enough for the check to mean something


def test_a_hard_move_does_not_keep_the_moves_after_it_open() -> None:
    # solve() gives the open moves turns, each with a share of the budget that doubles every round.
    # Searched one after another, the moves settled within a budget would be a prefix of the search
    # order (besides those the value's own search settles at once); with turns, moves after an open
    # one are settled too.
    rng = random.Random(3)
    later = 0
    for _ in range(40):
        state = random_position(rng, rng.randint(6, 9))
        probe = Solver()
        probe.value(state)
        at_once = set(dict(Solver(max_nodes=probe.nodes + 1).solve(state).moves))
        solution = Solver(max_nodes=probe.nodes + 3000).solve(state)
        assert set(dict(solution.moves)) >= at_once
        open_before = False
        for move in _order(state.copy()):
            if move in solution.unsettled:
                open_before = True
            elif open_before and move not in at_once:
                later += 1
        if later >= 5:
            break
    assert later >= 5


def test_a_lost_position_settles_every_move_at_once() -> None:
    rng = random.Random(8)
    lost = 0
    while lost < 12:
        state = random_position(rng, rng.randint(4, 7))
        solver = Solver()
        if solver.value(state) != -1:
            continue
        lost += 1
        solution = solver.solve(state)
        assert not solution.unsettled and {value for _, value in solution.moves} == {-1}


def test_perfect_starts_each_hand_of_a_match_afresh_even_with_the_same_trumps() -> None:
    """A win proven in one hand is no win of the next: after a trump choice the player announces a new proven win
    again, though the trumps and the cards out of play are the last hand's (it went on taking the next hand for a
    proven win, asking its solver for the full budget at every move and announcing nothing)."""
    position = won_positions(1, cards=7)[0]
    perfect = PerfectPlayer(seed=1, solver_cards=7, probe_cards=7, solver_seconds=10, mcts_seconds=None)
    for hand in (1, 2):
        game = Game.from_position(position)
        perfect.choose(game.view(position.to_act))
        assert perfect.announcement() == FORCED_WIN, hand
        choosing = Game()
        assert choosing.to_act is not None
        perfect.choose(choosing.view(choosing.to_act))
        assert not perfect.proven_win, hand


def test_perfect_plays_a_lost_position_by_mcts_and_the_advice_says_the_value() -> None:
    rng = random.Random(12)
    found = drawn = 0
    while found < 8:
        state = random_position(rng, rng.randint(4, 7))
        value = Solver().value(state)
        if value == 1:
            continue
        found += 1
        game = Game.from_position(as_position(state))
        view = game.view(state.to_act)
        perfect = PerfectPlayer(seed=found, solver_seconds=10, mcts_seconds=None, mcts_iterations=10)
        move = perfect.choose(view)
        assert move in view.legal_moves and perfect.solved_moves == 1 and perfect.last_value == value
        assert perfect.announcement() is None
        if value == 0:  # (in a lost position the advice's MCTS would search for all of its seconds)
            drawn += 1
            assert advice(view, seconds=10).value == 0
    assert drawn > 0


def test_one_move_value_agrees_with_solve() -> None:
    rng = random.Random(5)
    for _ in range(40):
        state = random_position(rng, rng.randint(2, 6))
        solution = Solver().solve(state)
        assert not solution.unsettled
        for move, value in solution.moves:
            assert Solver().move_value(state, move) == value
    with pytest.raises(ValueError, match="not a legal move"):
        Solver().move_value(state, 99)


def test_a_search_pauses_the_garbage_collector_and_gives_it_back_as_it_found_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    collections: list[str] = []

    def count(phase: str, info: dict[str, int]) -> None:
        collections.append(phase)

    def collections_in_a_search() -> int:
        solver = Solver(max_nodes=30_000)
        position = random_position(random.Random(5), 10)
        collections.clear()
        with pytest.raises(SolverLimit):
            solver.value(position)
        assert solver.nodes >= 30_000
        return collections.count("start")

    thresholds = gc.get_threshold()
    # A low threshold makes an unpaused search collect many times over, whatever the heap held before.
    gc.set_threshold(25)
    gc.callbacks.append(count)
    try:
        paused = collections_in_a_search()
        assert gc.isenabled()
        with monkeypatch.context() as patched:
            patched.setattr(gc, "disable", lambda: None)
            unpaused = collections_in_a_search()
        assert paused <= 1 < 10 < unpaused, (paused, unpaused)  # at most one, before the search starts
        gc.disable()
        try:
            Solver(max_nodes=3000).solve(random_position(random.Random(6), 6))
            assert not gc.isenabled()  # a caller's own choice stands
        finally:
            gc.enable()
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*thresholds)


def test_perfect_told_the_games_history_plays_the_games_own_values() -> None:
    """A view holds no history; told it (``choose_move``), the ``perfect`` player's value is the game's, and its move
    keeps that value: on positions whose value the history changes, it neither walks into a third occurrence for a
    win it had without the history, nor misses the win the history leaves."""
    rng = random.Random(4)
    changed = 0
    for index, state, truth in positions_with_history(rng, 2000):
        if Solver().value(state) == truth:
            continue  # the history does not matter here
        view = Game.from_position(as_position(state)).view(state.to_act)
        perfect = PerfectPlayer(seed=index, solver_cards=36, solver_seconds=10, mcts_seconds=None, mcts_iterations=10)
        move = choose_move(perfect, view, state.seen)
        assert perfect.last_value == truth, index
        if truth > -1:  # a lost position is left to MCTS: every move loses
            child = state.copy()
            core.apply(child, move_of(move))
            assert brute_force_value(child, state.to_act) == truth, index
        changed += 1
        if changed == 40:
            break
    assert changed == 40


def test_a_solver_kept_between_games_answers_for_the_game_it_is_asked_about() -> None:
    # The table's keys hold hands, pile, seat and phase, not the trumps: the board's solver, kept between the logs
    # it is sent, and the hint's, kept between the hands of a match, answered a position with another game's value.
    rng = random.Random(5)
    differing = 0
    for _ in range(200):
        first = small_position(rng)
        hands = [list(cards_of_mask(hand)) for hand in first.hands]
        trumps = tuple(reversed(first.trumps))
        second = core.State.from_position(trumps, hands, first.pile, first.to_act, first.phase)
        kept = Solver()
        answers = (kept.value(first), kept.value(second), kept.value(first))
        truths = (brute_force_value(first.copy()), brute_force_value(second.copy()))
        assert answers == (truths[0], truths[1], truths[0])
        differing += truths[0] != truths[1]
    assert differing > 20  # the trumps decide many of these positions


def with_history(state: core.State, rng: random.Random) -> core.State:
    """``state`` after a game that had some positions of its game tree (sometimes ``state`` itself) once or twice."""
    seen = dict(state.seen)
    tree = sorted(counted_positions(state.copy(), set()))
    for key in rng.sample(tree, min(len(tree), rng.randint(1, 4))):
        seen[key] = rng.choice((1, 2))
    if state.phase != core.SECOND and rng.random() < 0.3:
        seen[state.key()] = 2
    state.seen = seen
    return state


def positions_with_history(rng: random.Random, count: int) -> Iterator[tuple[int, core.State, int]]:
    """Of ``count`` random small positions (every third one of :data:`REPEATING`), those in play that the brute force
    can search, numbered, each after a history (:func:`with_history`), with its value by the brute force."""
    for index in range(count):
        if index % 3 == 0:
            hands, pile, trumps, to_act, phase = rng.choice(REPEATING)
            state = core.State.from_position(trumps, hands, pile, to_act, phase)
        else:
            state = small_position(rng)
        if state.outcome is not None:
            continue
        state = with_history(state, rng)
        try:
            yield index, state, brute_force_value(state.copy())
        except TooLarge:
            continue


def test_a_solver_told_the_games_history_gives_the_games_own_values() -> None:
    """Rules §3.3.3 counts a position's occurrences over the whole game: a position the game has had twice draws when
    it comes up again. Told the history (``Solver.set_history``), the solver's values are the game's, move by move,
    as the plain minimax over the rules finds them with that history; a solver kept between the positions too."""
    rng = random.Random(1)
    kept = Solver()
    checked = changed = 0
    for index, state, truth in positions_with_history(rng, 300):
        solver = kept if index % 2 else Solver()
        solver.set_history(state.seen)
        solution = solver.solve(state)
        assert solution.value == truth, index
        for move, value in solution.moves:
            child = state.copy()
            core.apply(child, move)
            assert value == brute_force_value(child, state.to_act), (index, core.move_code(move))
        checked += 1
        changed += Solver().value(state) != truth  # the position alone, repetitions counted from it
    assert checked > 200 and changed > 20
