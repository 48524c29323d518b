"""One test per clause of docs/rules.md (and of the state log format §L5 prints), on hand-made positions.

Each test is named after the clause it checks (``test_2_4_...`` checks §2.4). Games are
built through real logs (:func:`rules.log.read_log`), so the log reader is exercised
too. Trumps are written one letter per seat: ``"SH"`` means seat 0 has spades, seat 1
hearts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_kit import at_position, deal_line, header, legal, move_line, position_line, replay

from rules import core
from rules.cards import CODES
from rules.events import Deal, Position, SixPassed, Take, Took, TurnPassed, WentOut, parse_event
from rules.game import Game, IllegalEvent
from rules.log import LogError, read_log
from rules.options import RuleSet

SPADES = [rank + "S" for rank in "6789TJQKA"]
HEARTS = [rank + "H" for rank in "6789TJQKA"]
DIAMONDS = [rank + "D" for rank in "6789TJQKA"]
CLUBS = [rank + "C" for rank in "6789TJQKA"]


def _event(text: str) -> Any:
    """An event written in the compact notation of :mod:`engine_kit`."""
    return parse_event(move_line(text))


def refused(*lines: str) -> LogError:
    """The error of a log whose last line must be refused (and only that line)."""
    with pytest.raises(LogError) as caught:
        replay(*lines)
    assert caught.value.line == len(lines), caught.value
    return caught.value


def outcome(game: Game) -> dict[str, object]:
    assert game.outcome is not None
    return game.outcome.model_dump(mode="json")


# --- §1 Cards and seats ----------------------------------------------------------------------


def test_1_cards_are_rank_then_suit_and_ranks_run_from_6_to_ace() -> None:
    game = at_position("HD", [[*SPADES[:4], *SPADES[5:]], ["7C"]], ["TS"], 0, "respond")
    assert legal(game) == {"beat 0 JS", "beat 0 QS", "beat 0 KS", "beat 0 AS", "take 0"}
    assert game.state().hands[0] == ["6S", "7S", "8S", "9S", "JS", "QS", "KS", "AS"]


def test_1_the_next_player_is_the_next_seat_wrapping_around() -> None:
    game = at_position("SHD", [["7C", "8C"], ["9C", "TC"], ["JC", "QC"]], [], 2, "lead", "lead 2 JC")
    assert (game.phase, game.to_act) == ("respond", 0)
    game = at_position("SHD", [["7C", "8C"], ["9C", "TC"], ["JC", "QC"]], [], 0, "lead", "lead 0 7C")
    assert (game.phase, game.to_act) == ("respond", 1)


def test_1_the_next_player_skips_players_who_hold_no_cards_3_players() -> None:
    game = at_position("SHD", [["7C", "8C"], [], ["JC", "QC"]], [], 0, "lead", "lead 0 7C")
    assert game.to_act == 2
    game = at_position("SHD", [["7C", "8C"], [], ["JC", "QC"]], [], 2, "lead", "lead 2 JC", "take 0")
    assert (game.phase, game.to_act) == ("lead", 2)  # the whole pile went to seat 0; seat 1 is skipped


def test_1_the_next_player_skips_players_who_hold_no_cards_4_players() -> None:
    hands = [["7C", "8C"], [], [], ["JC", "QC"]]
    game = at_position("SHDC", hands, [], 0, "lead", "lead 0 7C")
    assert game.to_act == 3
    game = at_position("SHDC", hands, [], 0, "lead", "lead 0 7C", "beat 3 JC", "second 3 QC")
    # seat 3 went out with its second card; seat 0 is the only one left holding cards
    assert game.is_over()
    hands = [["7C", "8C"], [], [], ["JC", "QC", "KC"]]
    game = at_position("SHDC", hands, [], 3, "lead", "lead 3 JC", "take 0", "lead 3 QC")
    assert game.to_act == 0  # seat 0 took the whole pile; seat 3 led; from seat 3 round to seat 0
    hands = [[], ["7C", "8C"], ["9C"], ["JC", "QC"]]
    game = at_position("SHDC", hands, [], 3, "lead", "lead 3 JC")
    assert game.to_act == 1  # from seat 3 round past the empty seat 0
    game = at_position("SHDC", hands, [], 1, "lead", "lead 1 7C", "take 2", "lead 3 QC")
    assert game.to_act == 1  # seat 2 took (whole pile) → seat 3 leads, seat 0 skipped after it


def test_1_turns_skip_a_player_who_went_out_during_play() -> None:
    # 3 players: seat 0 leads its last card and goes out; from then on the turn goes 1 → 2 → 1.
    game = at_position("SHD", [["7C"], ["8C", "9H"], ["TC", "JD", "QD"]], [], 0, "lead", "lead 0 7C", "take 1")
    assert (game.phase, game.to_act) == ("lead", 2)
    game = at_position(
        "SHD", [["7C"], ["8C", "9H"], ["TC", "JD", "QD"]], [], 0, "lead", "lead 0 7C", "take 1", "lead 2 JD"
    )
    assert (game.phase, game.to_act) == ("respond", 1)  # seat 0 is skipped
    # 4 players: seat 1 goes out by beating with its last card; seat 0's take passes the turn to seat 2.
    hands = [["7C", "8H"], ["QD"], ["TC", "JC"], ["9C", "AC"]]
    game = at_position("SHDC", hands, ["TD"], 1, "respond", "beat 1 QD", "take 2", "lead 3 9C")
    assert game.view(None).out_order == [1]
    assert (game.phase, game.to_act) == ("respond", 0)
    game = at_position("SHDC", hands, ["TD"], 1, "respond", "beat 1 QD", "take 2", "lead 3 9C", "take 0")
    assert (game.phase, game.to_act) == ("lead", 2)  # from seat 0, past seat 1 who went out


def test_1_the_duel_is_the_default() -> None:
    game = read_log('{"type": "start"}')
    assert game.rules == RuleSet(players=2, dealer=0, pass_sixes=True, must_beat=False)
    assert game.state().model_dump(mode="json") == {
        "phase": "trump_choice",
        "to_act": 1,
        "trumps": [None, None],
        "hands": [[], []],
        "pile": [],
        "outcome": None,
    }


# --- §2.1 Trump choice -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(p, d) for p in (2, 3, 4) for d in range(p)])
def test_2_1_trumps_are_chosen_one_at_a_time_from_the_dealers_left(players: int, dealer: int) -> None:
    lines = [header(players, dealer)]
    chosen: list[str] = []
    for turn in range(players):
        game = replay(*lines)
        seat = (dealer + 1 + turn) % players
        assert (game.phase, game.to_act) == ("trump_choice", seat)
        free = [suit for suit in "SHDC" if suit not in chosen]
        assert legal(game) == {f"choose {seat} {suit}" for suit in free}
        for other in range(players):
            if other != seat:
                assert "turn" in refused(*lines, f"choose {other} {free[0]}").reason
        suit = free[-1]
        chosen.append(suit)
        lines.append(f"choose {seat} {suit}")
    game = replay(*lines)
    assert (game.phase, game.to_act, game.legal_moves()) == ("deal", None, [])
    expected: list[str | None] = [None] * players
    for turn, suit in enumerate(chosen):
        expected[(dealer + 1 + turn) % players] = suit
    assert game.trumps == expected


def test_2_1_no_two_players_choose_the_same_suit() -> None:
    error = refused(header(3), "choose 1 H", "choose 2 H")
    assert "H" in error.reason and "seat 1" in error.reason
    game = replay(header(3), "choose 1 H", "choose 2 S")
    assert legal(game) == {"choose 0 D", "choose 0 C"}


def test_2_1_a_trump_is_chosen_once_and_before_play() -> None:
    lines = [header(2), "choose 1 H", "choose 0 S"]
    refused(*lines, "choose 1 D")  # everybody has chosen
    refused(header(2), "choose 1 H", "lead 0 6S")  # no play before the deal
    refused(header(2), "choose 1 H", deal_line([SPADES + HEARTS, DIAMONDS + CLUBS]))  # no deal before every choice


# --- §2.2 Deal and passing sixes -------------------------------------------------------------

DUEL_DEAL = [SPADES + HEARTS, DIAMONDS + CLUBS]


def dealt(trumps_by_choice: list[str], hands: list[list[str]], dealer: int = 0, *, pass_sixes: bool = True) -> Game:
    """A game after the trump choice (in choosing order from the dealer's left) and the deal."""
    players = len(hands)
    lines = [header(players, dealer, pass_sixes=pass_sixes)]
    for turn, suit in enumerate(trumps_by_choice):
        lines.append(f"choose {(dealer + 1 + turn) % players} {suit}")
    return replay(*lines, deal_line(hands))


def test_2_2_a_six_of_another_players_trump_passes_to_that_player() -> None:
    game = dealt(["S", "D"], DUEL_DEAL)  # seat 1: spades, seat 0: diamonds
    hands = game.state().hands
    assert "6S" in hands[1] and "6S" not in hands[0]
    assert "6D" in hands[0] and "6D" not in hands[1]
    assert (len(hands[0]), len(hands[1])) == (18, 18)


def test_2_2_a_six_of_your_own_trump_stays_and_hand_sizes_may_differ() -> None:
    game = dealt(["S", "H"], DUEL_DEAL)  # seat 1: spades, seat 0: hearts
    hands = game.state().hands
    assert "6H" in hands[0]  # seat 0's own trump
    assert "6S" in hands[1]  # passed from seat 0 to seat 1
    assert "6D" in hands[1] and "6C" in hands[1]  # nobody's trump: they stay
    assert (len(hands[0]), len(hands[1])) == (17, 19)


def test_2_2_a_six_of_nobodys_trump_stays_after_the_deal() -> None:
    hands = [SPADES[:6] + HEARTS[:6], SPADES[6:] + HEARTS[6:] + DIAMONDS[:6], DIAMONDS[6:] + CLUBS]
    game = dealt(["C", "D", "H"], hands)  # seat 1: clubs, seat 2: diamonds, seat 0: hearts; spades are nobody's
    state = game.state()
    assert "6S" in state.hands[0]
    assert state.trumps == ["H", "C", "D"]
    assert "6D" in state.hands[2] and "6C" in state.hands[1] and "6H" in state.hands[0]
    assert [len(hand) for hand in state.hands] == [12, 12, 12]


def test_2_2_the_passing_of_sixes_is_announced() -> None:
    game = Game(RuleSet(players=2))
    game.push(_event("choose 1 S"))
    game.push(_event("choose 0 D"))
    notes = game.push(Deal(hands=DUEL_DEAL))
    passed = sorted((note.card, note.from_seat, note.to_seat) for note in notes if isinstance(note, SixPassed))
    assert passed == [("6D", 1, 0), ("6S", 0, 1)]
    assert game.view(1).known[1] == ["6S"]  # everybody knows where a passed six went
    assert game.view(1).known[0] == ["6D"]
    # a six that stays (own trump: 6H of seat 0; nobody's: 6D, 6C) is not announced, nor known
    game = Game(RuleSet(players=2))
    game.push(_event("choose 1 S"))
    game.push(_event("choose 0 H"))
    notes = game.push(Deal(hands=DUEL_DEAL))
    assert notes == [SixPassed(card="6S", from_seat=0, to_seat=1)]
    assert game.view(None).known == [[], ["6S"]]


def test_2_2_with_four_players_every_six_goes_to_its_suits_owner() -> None:
    hands = [SPADES[1:] + ["6C"], HEARTS[1:] + ["6D"], DIAMONDS[1:] + ["6H"], CLUBS[1:] + ["6S"]]
    game = dealt(["S", "H", "D", "C"], hands, dealer=3)  # seat 0: S, 1: H, 2: D, 3: C
    assert game.state().hands == [SPADES, HEARTS, DIAMONDS, CLUBS]


def test_2_2_pass_sixes_off_keeps_every_six_where_it_was_dealt() -> None:
    game = dealt(["S", "D"], DUEL_DEAL, pass_sixes=False)
    assert game.state().hands == [sorted(DUEL_DEAL[0], key=CODES.index), DUEL_DEAL[1]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_2_2_the_whole_pack_is_dealt_36_over_n_cards_each(players: int) -> None:
    game = Game(RuleSet(players=players), seed=11)
    deal = game.sample_deal()
    assert [len(hand) for hand in deal.hands] == [36 // players] * players
    assert sorted(card for hand in deal.hands for card in hand) == sorted(CODES)
    suits = "SHDC"
    chosen = [suits[i] for i in range(players)]
    lines = [header(players), *(f"choose {(1 + t) % players} {chosen[t]}" for t in range(players))]
    wrong_sizes = [list(hand) for hand in deal.hands]
    wrong_sizes[1].append(wrong_sizes[0].pop())
    assert "line" in str(refused(*lines, deal_line(wrong_sizes)))
    duplicate = [list(hand) for hand in deal.hands]
    duplicate[0][0] = duplicate[1][0]
    refused(*lines, deal_line(duplicate))
    refused(*lines, deal_line([*deal.hands[:-1]]))
    game = replay(*lines, deal_line([list(hand) for hand in deal.hands]))
    assert sum(len(hand) for hand in game.state().hands) == 36


@pytest.mark.parametrize(("players", "dealer"), [(p, d) for p in (2, 3, 4) for d in range(p)])
def test_2_2_the_deal_goes_one_card_at_a_time_from_the_dealers_left(players: int, dealer: int) -> None:
    hands = core.deal_in_turn(players, dealer, core.CARDS)  # the pack in order, to see who gets which card
    pack = list(CODES)
    for index, card in enumerate(pack):
        assert card in [c.code for c in hands[(dealer + 1 + index) % players]]


# --- §2.3 Lead -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(p, d) for p in (2, 3, 4) for d in range(p)])
def test_2_3_the_first_lead_is_made_by_the_dealers_left_with_any_card(players: int, dealer: int) -> None:
    game = Game(RuleSet(players=players, dealer=dealer), seed=players * 10 + dealer)
    while game.phase == "trump_choice":
        game.push(game.legal_moves()[0])
    game.push(game.sample_deal())
    first = (dealer + 1) % players
    assert (game.phase, game.to_act) == ("lead", first)
    assert legal(game) == {f"lead {first} {card}" for card in game.hand(first)}


def test_2_3_leading_your_last_card_goes_out_and_the_next_player_answers_it() -> None:
    game = at_position("SHD", [["7C"], ["8C", "9C"], ["TC", "JC"]], [], 0, "lead", "lead 0 7C")
    assert (game.phase, game.to_act, game.pile) == ("respond", 1, ["7C"])
    assert game.view(None).out_order == [0]
    assert legal(game) == {"beat 1 8C", "beat 1 9C", "take 1"}


def test_2_3_a_lead_is_only_made_on_an_empty_pile() -> None:
    error = refused(header(), position_line("SH", [["7C"], ["8C"]], ["6C"], 1, "respond"), "lead 1 8C")
    assert "seat 1" in error.reason


# --- §2.4 Respond: beat or take --------------------------------------------------------------


def test_2_4_a_higher_card_of_the_same_suit_beats() -> None:
    game = at_position("SH", [["7S"], ["9D", "JD", "7C", "AS"]], ["TD"], 1, "respond")
    assert legal(game) == {"beat 1 JD", "take 1"}


def test_2_4_own_trump_beats_other_suit_even_when_following_is_possible() -> None:
    game = at_position("SH", [["7S"], ["JD", "6H", "AS"]], ["TD"], 1, "respond")
    assert legal(game) == {"beat 1 JD", "beat 1 6H", "take 1"}
    game = at_position("SH", [["7S"], ["JD", "6H", "AS"]], ["TD"], 1, "respond", "beat 1 6H")
    assert (game.phase, game.to_act, game.pile) == ("second", 1, ["TD", "6H"])


def test_2_4_a_card_of_your_own_trump_is_beaten_only_by_a_higher_card_of_that_suit() -> None:
    game = at_position("SH", [["7S"], ["TH", "8H", "AS", "AD"]], ["9H"], 1, "respond")
    assert legal(game) == {"beat 1 TH", "take 1"}


def test_2_4_another_suit_that_is_not_your_trump_never_beats() -> None:
    game = at_position("SH", [["7C"], ["AS", "AC", "AD"]], ["6D", "6H", "7D"], 1, "respond")
    assert legal(game) == {"beat 1 AD", "take 1"}  # not AS (seat 0's trump) nor AC
    error = refused(header(), position_line("SH", [["7C"], ["AS", "AC"]], ["6D"], 1, "respond"), "beat 1 AS")
    assert "cannot beat" in error.reason and "6D" in error.reason and "AS" in error.reason


def test_2_4_whose_trump_the_top_card_was_does_not_matter() -> None:
    # 9S is seat 0's trump; for seat 1 (hearts) it is an ordinary spade.
    game = at_position("SH", [["9S", "7C"], ["8S", "TS", "6H", "AD"]], [], 0, "lead", "lead 0 9S")
    assert legal(game) == {"beat 1 TS", "beat 1 6H", "take 1"}
    # 9H was led by seat 0, for whom it is no trump; for seat 1 it is: only a higher heart beats it.
    game = at_position("SH", [["9H", "7C"], ["8H", "TH", "AS", "AD"]], [], 0, "lead", "lead 0 9H")
    assert legal(game) == {"beat 1 TH", "take 1"}
    # Seat 1's trump is special only on seat 1's turn: seat 0 beats the 6H with any spade.
    game = at_position("SH", [["7S", "AC"], ["6H", "8D"]], [], 1, "lead", "lead 1 6H")
    assert legal(game) == {"beat 0 7S", "take 0"}


def test_2_4_taking_is_allowed_even_when_you_could_beat() -> None:
    game = at_position("SH", [["7C"], ["JD", "AH"]], ["6C", "TD"], 1, "respond", "take 1")
    assert game.state().hands[1] == ["AH", "TD", "JD", "6C"]


def test_2_4_must_beat_forbids_taking_while_you_hold_a_card_that_beats() -> None:
    game = at_position("SH", [["7C"], ["JD", "8C"]], ["TD"], 1, "respond", must_beat=True)
    assert legal(game) == {"beat 1 JD"}
    lines = [header(must_beat=True), position_line("SH", [["7C"], ["JD", "8C"]], ["TD"], 1, "respond"), "take 1"]
    assert "seat 1" in refused(*lines).reason
    # a trump that beats counts as well
    game = at_position("SH", [["7C"], ["6H", "8C"]], ["TD"], 1, "respond", must_beat=True)
    assert legal(game) == {"beat 1 6H"}


def test_2_4_must_beat_allows_taking_when_nothing_beats() -> None:
    game = at_position("SH", [["7C"], ["9D", "AS"]], ["TD"], 1, "respond", "take 1", must_beat=True)
    assert (game.phase, game.to_act, game.pile) == ("lead", 0, [])


def test_2_4_only_the_player_to_act_responds_and_only_with_own_cards() -> None:
    lines = [header(), position_line("SH", [["JD", "7C"], ["QD", "8C"]], ["TD"], 1, "respond")]
    refused(*lines, "beat 0 JD")  # out of turn
    refused(*lines, "take 0")
    refused(*lines, "beat 1 KD")  # not in hand
    refused(*lines, "second 1 QD")  # wrong kind of event
    refused(*lines, "lead 1 QD")


# --- §2.5 Beat + second card -----------------------------------------------------------------


def test_2_5_after_beating_the_same_player_plays_any_second_card() -> None:
    game = at_position("SH", [["7C", "8C"], ["JD", "6S", "7D", "AH"]], ["TD"], 1, "respond", "beat 1 JD")
    assert (game.phase, game.to_act) == ("second", 1)
    assert legal(game) == {"second 1 6S", "second 1 7D", "second 1 AH"}  # lower, other suits, trumps: any card
    refused(header(), position_line("SH", [["7C"], ["JD", "6S"]], ["TD"], 1, "respond"), "beat 1 JD", "beat 1 6S")
    refused(header(), position_line("SH", [["7C"], ["JD", "6S"]], ["TD"], 1, "respond"), "beat 1 JD", "take 1")


def test_2_5_the_second_card_is_what_the_next_player_must_answer() -> None:
    game = at_position("SH", [["7C", "7S"], ["JD", "6S", "9C"]], ["TD"], 1, "respond", "beat 1 JD", "second 1 6S")
    assert (game.phase, game.to_act, game.pile) == ("respond", 0, ["TD", "JD", "6S"])
    assert legal(game) == {"beat 0 7S", "take 0"}


def test_2_5_beating_with_your_last_card_goes_out_with_no_second_card() -> None:
    hands = [["7C", "QD"], ["JD"], ["KD", "8S"]]
    game = at_position("SHC", hands, ["TD"], 1, "respond", "beat 1 JD")
    assert (game.phase, game.to_act, game.pile) == ("respond", 2, ["TD", "JD"])
    assert game.view(None).out_order == [1]
    assert legal(game) == {"beat 2 KD", "take 2"}  # seat 2 answers the beating card JD
    refused(header(3), position_line("SHC", hands, ["TD"], 1, "respond"), "beat 1 JD", "second 1 JD")


def test_2_5_the_second_card_as_your_last_card_goes_out() -> None:
    game = at_position("SHC", [["7C", "QD"], ["JD", "9S"], ["KD", "TS"]], ["TD"], 1, "respond", "beat 1 JD")
    notes = game.push(_event("second 1 9S"))
    assert WentOut(seat=1, place=1) in notes
    assert (game.phase, game.to_act, game.pile) == ("respond", 2, ["TD", "JD", "9S"])
    assert legal(game) == {"beat 2 TS", "take 2"}


# --- §2.6 Take -------------------------------------------------------------------------------

FILLER = ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]

TAKE_CASES = [
    # top card (seat 0's trump is spades, seat 1's hearts), pile size, cards taken
    *[("AD", size, min(3, size)) for size in (1, 2, 3, 4, 6, 9)],  # not the taker's trump, even an ace
    *[("AH", size, min(3, size)) for size in (1, 3, 4, 9)],  # the ace of somebody else's trump
    *[("KS", size, min(5, size)) for size in (1, 2, 4, 5, 6, 9)],  # the taker's trump, not the ace
    *[("6S", size, min(5, size)) for size in (3, 7)],
    *[("AS", size, size) for size in (1, 2, 5, 6, 9)],  # the ace of the taker's trump: the whole pile
]


@pytest.mark.parametrize(("top", "size", "taken"), TAKE_CASES)
def test_2_6_take_3_5_or_the_whole_pile(top: str, size: int, taken: int) -> None:
    pile = [*FILLER[: size - 1], top]
    position = read_log("\n".join([header(), position_line("SH", [["7D"], ["8D"]], pile, 0, "respond")])).events[0]
    assert isinstance(position, Position)
    game = Game.from_position(position)
    assert [event.count for event in game.legal_moves() if isinstance(event, Take)] in ([taken], [None])
    notes = game.push(Take(seat=0))
    assert game.pile == pile[: size - taken]
    assert game.state().hands[0] == sorted(["7D", *pile[size - taken :]], key=CODES.index)
    took = [note for note in notes if isinstance(note, Took)]
    assert took == [Took(seat=0, cards=pile[size - taken :], whole_pile=taken == size)]
    # then it is the next player's turn: to answer what is left (§2.7), or to lead
    assert game.to_act == 1
    assert game.phase == ("respond" if taken < size else "lead")
    assert TurnPassed(seat=1, phase=game.phase) in notes


def test_2_6_a_take_with_a_count_field_must_give_that_count() -> None:
    lines = [header(), position_line("SH", [["7D"], ["8D"]], ["6C", "7C", "8C", "9C", "KS"], 0, "respond")]
    game = replay(*lines, "take 0 5")
    assert game.pile == []
    error = refused(*lines, "take 0 3")
    assert "3" in error.reason and "5" in error.reason
    refused(*lines, "take 0 6")
    lines[1] = position_line("SH", [["7D"], ["8D"]], ["6C", "7C", "8C", "9C", "KD"], 0, "respond")
    assert replay(*lines, "take 0 3").pile == ["6C", "7C"]
    refused(*lines, "take 0 5")


# --- §2.7 Re-lead ----------------------------------------------------------------------------


def test_2_7_after_a_take_the_next_player_answers_the_exposed_top_card() -> None:
    pile = ["9S", "6C", "7C", "8C"]
    game = at_position("SH", [["7D"], ["TS", "6H", "KD", "AC"]], pile, 1, "respond", "take 1")
    assert game.pile == ["9S"]
    # seat 0 (spades): 9S is its own trump and it holds no higher spade: it can only take
    assert (game.phase, game.to_act, legal(game)) == ("respond", 0, {"take 0"})
    game = at_position("HS", [["TS", "7D"], ["6H", "KD", "AC"]], pile, 1, "respond", "take 1")
    assert legal(game) == {"beat 0 TS", "take 0"}


def test_2_7_after_the_whole_pile_was_taken_the_next_player_leads() -> None:
    game = at_position("SH", [["7D", "9H"], ["TS", "KD"]], ["6C", "7C"], 0, "respond", "take 0")
    assert (game.phase, game.to_act, game.pile) == ("lead", 1, [])
    assert legal(game) == {"lead 1 TS", "lead 1 KD"}
    game = at_position("SHD", [["7D"], ["TS"], ["QC"]], ["6C", "AS"], 0, "respond", "take 0", "lead 1 TS")
    assert (game.phase, game.to_act) == ("respond", 2)


# --- §3 Going out, end of game, tie check ----------------------------------------------------


def test_3_the_last_player_with_one_card_that_beats_draws() -> None:
    game = at_position("SH", [["7D"], ["8D"]], [], 0, "lead", "lead 0 7D")
    assert (game.phase, game.to_act, game.legal_moves()) == ("finished", None, [])
    assert outcome(game) == {"result": "draw", "reason": "tie_check", "out_order": [0]}


def test_3_the_tie_check_is_under_the_last_players_own_trump() -> None:
    game = at_position("SH", [["7D"], ["6H"]], [], 0, "lead", "lead 0 7D")
    assert outcome(game) == {"result": "draw", "reason": "tie_check", "out_order": [0]}
    game = at_position("SH", [["7H"], ["6H"]], [], 0, "lead", "lead 0 7H")
    assert outcome(game) == {"result": "loss", "loser": 1, "out_order": [0]}
    game = at_position("HS", [["7D"], ["AH"]], [], 0, "lead", "lead 0 7D")  # AH is seat 0's trump, not seat 1's
    assert outcome(game) == {"result": "loss", "loser": 1, "out_order": [0]}


def test_3_the_last_player_with_one_card_that_does_not_beat_loses() -> None:
    game = at_position("SH", [["7D"], ["6D"]], [], 0, "lead", "lead 0 7D")
    assert outcome(game) == {"result": "loss", "loser": 1, "out_order": [0]}


def test_3_the_last_player_with_two_cards_loses_even_if_one_beats() -> None:
    game = at_position("SH", [["7D"], ["AD", "AH"]], [], 0, "lead", "lead 0 7D")
    assert outcome(game) == {"result": "loss", "loser": 1, "out_order": [0]}


def test_3_going_out_by_beating_or_by_the_second_card_triggers_the_tie_check() -> None:
    game = at_position("SH", [["QD"], ["9D", "7C"]], ["TD"], 0, "respond", "beat 0 QD")
    assert outcome(game) == {"result": "loss", "loser": 1, "out_order": [0]}
    game = at_position("SH", [["QD", "6D"], ["9D"]], ["TD"], 0, "respond", "beat 0 QD", "second 0 6D")
    assert outcome(game) == {"result": "draw", "reason": "tie_check", "out_order": [0]}
    game = at_position("SH", [["QD", "6D"], ["9D"]], ["TD"], 0, "respond", "beat 0 QD")
    assert not game.is_over()  # not yet: seat 0 still holds a card


def test_3_winners_are_listed_in_the_order_they_went_out() -> None:
    # seat 1 goes out with its lead, seat 2 with its second card; seat 0's 7D does not beat TD
    game = at_position("SHC", [["7D"], ["8C"], ["TD", "AC"]], [], 1, "lead", "lead 1 8C", "beat 2 AC")
    assert not game.is_over()
    game.push(_event("second 2 TD"))
    assert outcome(game) == {"result": "loss", "loser": 0, "out_order": [1, 2]}


def test_3_four_players_go_out_one_by_one_and_turns_skip_them() -> None:
    hands = [["6D"], ["7D"], ["8D"], ["9D", "6C"]]
    game = at_position("SHDC", hands, [], 0, "lead", "lead 0 6D", "beat 1 7D")
    assert (game.to_act, game.view(None).out_order) == (2, [0, 1])
    game = at_position("SHDC", hands, [], 0, "lead", "lead 0 6D", "beat 1 7D", "beat 2 8D")
    # seat 3 (clubs) is left with 9D and 6C against 8D: two cards, a loss
    assert outcome(game) == {"result": "loss", "loser": 3, "out_order": [0, 1, 2]}


def test_3_no_event_is_accepted_after_the_end() -> None:
    lines = [header(), position_line("SH", [["7D"], ["8D"]], [], 0, "lead"), "lead 0 7D"]
    for after in ("lead 1 8D", "beat 1 8D", "take 1", "second 1 8D", "choose 0 S", deal_line(DUEL_DEAL)):
        assert "over" in refused(*lines, after).reason


# --- §3 Endless play: the third repetition ---------------------------------------------------
# From this position the game goes round in a circle of eight moves (found by a search):
# seat 0 takes the whole pile, seat 1 leads 6H, seat 0 beats with TH and plays KH on it,
# seat 1 (hearts) takes the three, seat 0 leads 8C, seat 1 beats with TH and plays KH.

CIRCLE_HANDS = [["JH", "8H"], ["JS", "TD", "6H"]]
CIRCLE_PILE = ["8C", "TH", "KH"]
CIRCLE = ["take 0", "lead 1 6H", "beat 0 TH", "second 0 KH", "take 1", "lead 0 8C", "beat 1 TH", "second 1 KH"]


def test_3_the_circle_returns_to_its_start() -> None:
    start = at_position("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond")
    once = at_position("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond", *CIRCLE)
    assert once.state() == start.state()


def test_3_the_third_repetition_is_a_draw_and_the_second_is_not() -> None:
    # The position line counts as the first occurrence of its position (rules §3.3.5).
    moves = CIRCLE * 2
    for played in range(len(moves)):
        game = at_position("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond", *moves[:played])
        assert not game.is_over(), played  # after 8 moves: the second occurrence, play goes on
    game = at_position("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond", *moves)
    assert outcome(game) == {"result": "draw", "reason": "repetition", "out_order": []}
    assert (game.phase, game.to_act) == ("finished", None)
    assert game.state().hands == [["8H", "JH"], ["JS", "6H", "TD"]]  # the position that repeated
    lines = [header(), position_line("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond"), *moves]
    assert "over" in refused(*lines, "take 0").reason


def test_3_a_lead_position_counts_as_its_own_first_occurrence() -> None:
    hands = [["JH", "8H", "8C", "TH", "KH"], ["JS", "TD", "6H"]]  # the circle after its first move
    moves = [*CIRCLE[1:], *CIRCLE[:1]] * 2
    game = at_position("SH", hands, [], 1, "lead", *moves[:-1])
    assert not game.is_over()
    game = at_position("SH", hands, [], 1, "lead", *moves)
    assert outcome(game) == {"result": "draw", "reason": "repetition", "out_order": []}


def test_3_a_position_in_phase_second_is_not_an_occurrence() -> None:
    # Seat 1 is about to play KH as its second card. The position line itself is no occurrence
    # (positions are compared only when the turn passes); the circle's start, reached by that
    # second card, is the first occurrence, so the draw comes after two more laps, not before.
    hands = [["JH", "8H"], ["JS", "TD", "6H", "KH"]]
    moves = ["second 1 KH", *CIRCLE, *CIRCLE]
    game = at_position("SH", hands, ["8C", "TH"], 1, "second", *moves[:-1])
    assert not game.is_over()
    game = at_position("SH", hands, ["8C", "TH"], 1, "second", *moves)
    assert outcome(game) == {"result": "draw", "reason": "repetition", "out_order": []}


def test_3_a_position_repeated_by_undo_is_not_counted() -> None:
    game = at_position("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond", *CIRCLE)  # the start, a second time
    for _ in range(5):  # reaching the circle's next position and taking it back again is no occurrence
        game.push(Take(seat=0))
        game.pop()
    for line in CIRCLE[:-1]:
        game.push(_event(line))
        assert not game.is_over()
    game.push(_event(CIRCLE[-1]))
    assert outcome(game) == {"result": "draw", "reason": "repetition", "out_order": []}


# --- log format §L5: the state that `trumps replay --json` prints --------------------------------


def test_contract_state_before_the_deal_has_no_seat_to_act_and_null_trumps() -> None:
    game = replay(header(3, 1), "choose 2 D")
    assert game.state().model_dump(mode="json") == {
        "phase": "trump_choice",
        "to_act": 0,
        "trumps": [None, None, "D"],
        "hands": [[], [], []],
        "pile": [],
        "outcome": None,
    }
    game = replay(header(3, 1), "choose 2 D", "choose 0 S", "choose 1 C")
    state = game.state().model_dump(mode="json")
    assert (state["phase"], state["to_act"], state["trumps"]) == ("deal", None, ["S", "C", "D"])


def test_contract_hands_are_sorted_by_suit_then_rank_and_the_pile_runs_bottom_to_top() -> None:
    game = at_position("SH", [["AC", "6C", "TD", "KH", "7S", "6H", "AS"], ["QD"]], ["KD", "9S"], 1, "respond")
    state = game.state().model_dump(mode="json")
    assert state["hands"][0] == ["7S", "AS", "6H", "KH", "TD", "6C", "AC"]
    assert state["pile"] == ["KD", "9S"]
    assert list(state) == ["phase", "to_act", "trumps", "hands", "pile", "outcome"]


def test_contract_outcome_shapes() -> None:
    loss = at_position("SH", [["7D"], ["6D"]], [], 0, "lead", "lead 0 7D").state().model_dump(mode="json")
    assert (loss["phase"], loss["to_act"]) == ("finished", None)
    assert loss["outcome"]["result"] == "loss" and loss["outcome"]["loser"] == 1
    draw = at_position("SH", [["7D"], ["8D"]], [], 0, "lead", "lead 0 7D").state().model_dump(mode="json")
    assert draw["outcome"]["result"] == "draw" and "loser" not in draw["outcome"]
    assert draw["outcome"].get("reason") != "repetition"
    repeated = at_position("SH", CIRCLE_HANDS, CIRCLE_PILE, 0, "respond", *CIRCLE, *CIRCLE).state()
    assert repeated.model_dump(mode="json")["outcome"]["reason"] == "repetition"
    json.dumps(repeated.model_dump(mode="json"))


def test_contract_a_game_in_play_prints_the_seat_to_act() -> None:
    game = at_position("SH", [["7D", "8D"], ["6D", "9D"]], [], 0, "lead", "lead 0 7D")
    state = game.state().model_dump(mode="json")
    assert (state["phase"], state["to_act"], state["outcome"]) == ("respond", 1, None)


def test_illegal_event_leaves_the_game_unchanged() -> None:
    game = at_position("SH", [["7D", "8D"], ["6D", "9D"]], [], 0, "lead")
    before = (game.state(), game.events)
    with pytest.raises(IllegalEvent):
        game.push(_event("lead 1 6D"))
    assert (game.state(), game.events) == before
