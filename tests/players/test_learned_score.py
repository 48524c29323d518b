"""The learned score of a duel (:mod:`rules.players.learned_score`) and MCTS that scores its rollouts with it."""

from __future__ import annotations

import random

from benchmarks.learned_score import fit, positions
from rules import core
from rules.cards import Card, mask_of
from rules.game import Game
from rules.options import RuleSet
from rules.players import learned_score, mcts
from rules.players.learned_score import FEATURES, WEIGHTS, evaluate, features, win_probability
from rules.players.levels import parse_bot
from rules.players.mcts import MCTSPlayer

SPADES, HEARTS = 0, 1


def _duel(mine: str, theirs: str, to_act: int = 0) -> core.State:
    """A duel position to lead for seat ``to_act``, holding ``mine`` with spades for trump (the other: hearts)."""
    hands = [[Card.parse(code) for code in mine.split()], [Card.parse(code) for code in theirs.split()]]
    trumps = [SPADES, HEARTS]
    if to_act == 1:
        hands.reverse()
        trumps.reverse()
    return core.State.from_position(trumps, hands, (), to_act, core.LEAD)


def test_a_weight_for_every_feature() -> None:
    assert len(WEIGHTS) == len(FEATURES) == len(features(_duel("AS", "6H 7H")))


def test_a_card_the_other_cannot_beat_against_a_dozen_is_likely_to_win_and_the_reverse_to_lose() -> None:
    dozen = "6D 7D 8D 9D TD JD 6C 7C 8C 9C TC JC"  # no heart: the ace of spades is unbeatable
    ahead, behind = win_probability(features(_duel("AS", dozen))), win_probability(features(_duel(dozen, "AS")))
    assert ahead > 0.6 > 0.4 > behind


def test_the_score_is_zero_sum_and_the_same_from_either_seat() -> None:
    # The same position, once with seat 0 to act and once with the seats' hands and trumps swapped.
    first = evaluate(_duel("AS KD 7C", "6H 9D TC JC", to_act=0))
    second = evaluate(_duel("AS KD 7C", "6H 9D TC JC", to_act=1))
    assert first[0] == -first[1] and -1 < first[0] < 1
    assert second == [first[1], first[0]]


def test_a_finished_game_scores_its_result_and_three_players_the_hand_sizes() -> None:
    state = _duel("AS", "6H 7H")
    core.apply(state, Card.parse("AS"))  # the last card: seat 0 is out, seat 1 holds cards and loses
    assert state.outcome is not None and evaluate(state) == [1.0, -1.0]
    hands = [[Card.parse(code) for code in hand.split()] for hand in ("AS KS", "6H", "7D 8D 9D")]
    three = core.State.from_position((SPADES, HEARTS, 2), hands, (), 1, core.LEAD)
    assert evaluate(three) == mcts.evaluate(three)


def test_mcts_scores_every_unfinished_rollout_with_the_score_it_is_given() -> None:
    game = Game(RuleSet(players=2), seed=5)
    player = MCTSPlayer(iterations=1, seed=5)
    while game.phase != "lead":
        game.push(game.sample_deal() if game.phase == "deal" else player.choose(game.view(game.to_act or 0)))
    seat = game.to_act
    assert seat is not None
    scored: list[int] = []

    def counting(state: core.State) -> list[float]:
        scored.append(state.to_act)
        return mcts.evaluate(state)

    mcts.search(game.view(seat), random.Random(1), iterations=25, rollouts=mcts.Rollouts(4, counting))
    assert len(scored) == 25  # 18 cards a hand: no rollout of 4 plies ends the game


def test_mcts_learned_plays_on_the_pure_path_and_is_deterministic_for_a_seed() -> None:
    moves = []
    for _ in range(2):
        bots = [parse_bot("mcts-learned:40it", seed=7), parse_bot("mcts:40it", seed=8)]
        game = Game(RuleSet(players=2), seed=11)
        while not game.is_over() and len(game.events) < 24:
            if game.phase == "deal":
                game.push(game.sample_deal())
            else:
                seat = game.to_act
                assert seat is not None
                game.push(bots[seat].choose(game.view(seat)))
        moves.append(game.events)
    assert bots[0].name == "mcts-learned:40it"
    assert isinstance(bots[0], MCTSPlayer) and bots[0].duel == (learned_score.ROLLOUT_PLIES, learned_score.evaluate)
    assert moves[0] == moves[1]


def test_the_fit_recovers_the_weights_that_made_the_labels() -> None:
    rng = random.Random(1)
    truth = (0.5, -2.0, 1.5)
    rows = [[1.0, rng.random(), rng.random()] for _ in range(3000)]
    labels = [win_probability(row, truth) for row in rows]  # exact chances: the fit's optimum is the truth
    fitted = fit(rows, labels)
    assert all(abs(a - b) < 0.1 * abs(b) for a, b in zip(fitted, truth, strict=True))  # the ridge shrinks a little


def test_unbeatable_counts_the_cards_above_the_others_highest_of_each_suit_without_their_trump() -> None:
    mine = mask_of(Card.parse(code) for code in ("AS", "QS", "9S", "KD"))
    theirs = mask_of(Card.parse(code) for code in ("KS", "7D"))  # hearts are their trump: they hold none
    assert learned_score.unbeatable(mine, theirs, HEARTS) == 2  # the ace of spades and the king of diamonds


def test_with_three_players_mcts_learned_plays_as_mcts() -> None:
    game = Game(RuleSet(players=3), seed=2)
    learned, plain = parse_bot("mcts-learned:30it", seed=3), parse_bot("mcts:30it", seed=3)
    while len(game.events) < 30:
        if game.phase == "deal":
            game.push(game.sample_deal())
            continue
        seat = game.to_act
        assert seat is not None
        move = learned.choose(game.view(seat))
        assert move == plain.choose(game.view(seat))
        game.push(move)


def test_the_benchmark_labels_the_same_positions_alike_whether_one_game_at_a_time_or_two() -> None:
    alone, together = positions(3, games=3, every=40, playouts=1), positions(3, games=3, every=40, playouts=1, jobs=2)
    assert [(number, label) for number, _, label in alone] == [(number, label) for number, _, label in together]
    assert [state.key() for _, state, _ in alone] == [state.key() for _, state, _ in together]
    assert {number for number, _, _ in alone} == {0, 1, 2}
