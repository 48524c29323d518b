"""The exact duel solver: who wins a two-player position with best play, and how.

Search runs on :mod:`rules.core` (``legal_moves``, ``apply``, ``undo``); nothing here
decides what is legal or who has lost.

How the repetition rule is treated, and why the values are exact
=================================================================

Rules §3 ends the game as a draw when the same position (hands, pile, player to act,
phase) arises for the third time. A game value therefore depends in general on the path
that led to a position. The solver computes the value of a position *with repetition
counts starting at that position* (the position counted once, nothing else seen), which
is what ``trumps solve`` asks for, and shows that this value is a property of the
position alone:

1. Let ``V*(P)`` be the value of the game played on the graph of positions where an
   endless play is a draw (no counting at all). If the player to act can force a win in
   that game, a winning strategy exists that never visits a position twice (the classic
   attractor: each step lowers the distance to the win). Played under the real rule from
   ``P`` counted once, it meets no position twice, so the repetition draw never fires: a
   win. If neither player can force a win, each has a strategy that keeps out of the
   positions lost for them; under the real rule the game is finite (no position occurs
   more than three times), so it ends in a draw or better for both: a draw. Hence the real
   value from a fresh ``P`` is ``V*(P)``; the same argument holds whenever every position of
   the history has been seen at most once, so the value of each move (the position after
   it, the root counted once) is ``V*`` of the position it leads to.

2. ``V*`` is decided by Boolean questions, "can seat X force a win?", for the seat to act
   and for the other. A position where X is to act is an OR node, otherwise an AND node, and
   a position that recurs on the current path (its second occurrence) counts as *not a win*
   for X. Nothing here needs the third occurrence: the argument of point 1 holds whichever
   occurrence the rules draw at from the second on, and the searches take a recurrence for
   a not-win leaning on the line before they read the rules' outcome, which at the second
   occurrence would be that draw (:data:`rules.core.REPETITIONS_FOR_DRAW`, edited to 2 by a
   test). Two searches answer them, sharing one table. They take turns, each with a budget of
   nodes that doubles every round, and the first to settle the value answers: each has
   positions on which the other is many times slower.

   - **The exact Boolean search** (alpha–beta in its AND/OR form). A proven **not-win** is
     sound for ``V*`` only if every repetition it relied on went back to the node itself or
     below it (then the opponent can cycle inside that proof for ever); each result carries
     the shallowest path depth it leaned on, and a not-win is stored only when that depth is
     not above the node. The root of a search leans on nothing above it, so its result is
     always ``V*``. It runs under a depth bound that grows (iterative deepening, from
     :data:`FIRST_DEPTH` by :data:`DEPTH_STEP` plies): a win found under a bound is a real
     win; a not-win counts only once no branch was cut by the bound. A position where X
     cannot go out within the plies left (:func:`~rules.players.proof_numbers.plies_to_go_out`)
     is cut at once. Moves are tried greedy choice first: besides cutting this search
     short, the wins it stores along the greedy lines are what the proof-number search most
     often reuses (with moves in pack order the two searches together needed two to three
     times the nodes on most 14-card positions that take them seconds). The seat's other
     moves get a shallower bound (late move reductions, as in chess programs): the second
     :data:`REDUCTION` plies less, the rest twice that. A win found under a reduced bound is
     still a win and a not-win under it is cut, so a search in which no branch met its
     bound is still exact. The solver then needed 0.87 times the nodes (geometric mean) on
     60 fresh positions of 14 cards, and 0.65 times on the 20 it was tuned on. In its first
     :data:`GUIDED_PLIES` plies it orders the moves by the proof-number search's numbers
     instead, when it has them: the lowest proof number first at the proving seat's moves,
     the lowest disproof number at the other seat's. On those 60 positions that took 0.78
     times the nodes and solved 33 within 1.5M nodes instead of 31, at about 7% more time
     per node; on the benchmark's three 14-card samples 0.85, 1.03 and 0.83 times, with 54
     of the 90 solved within 10 s instead of 53. Ordering 8 plies gained about as much, and
     every ply a little more at 26% more time per node (measured before the checked
     disproofs). The disproof numbers lead the other seat into the cycles the proof-number
     search found, where not-wins lean on the path and are not stored; before draws were
     settled by checked disproofs (below), that made the exact search's bound grow without
     end on some draws. Checking every child in the table before searching any (enhanced
     transposition cutoff) saved no node here and cost half the time, so there is none. When
     its budget runs out it stops and starts the same bound again next round, from the table.
   - **Proof-number search** (:mod:`rules.players.proof_numbers`), one seat at a time. A
     proven **win** is a finite proof tree in which no position repeats, made of positions
     each proven before their parent: a win of ``V*`` whatever the path, stored in the table
     with its height (point 3). It asks first whether the seat to act wins; once that is
     disproven it asks whether the other seat does, starting from the first search's numbers
     mirrored (the two questions grow the same tree but for cycles), which costs a small part
     of the first search. A disproof may lean on a repetition above a position, so it counts
     only once it passes a check of its own (:meth:`~rules.players.proof_numbers.ProofNumberSearch.refuted`):
     the disproven positions it reaches must form a closed set, in which every move of the
     seat stays inside and the other seat always has a move that stays inside or ends the
     game safely. The other seat can then keep the game in the set for ever, so the seat
     cannot force a win from any of its positions, whatever the path; they are stored as
     not-wins. When both seats' disproofs pass, the position is a draw. A disproof that fails
     the check is a hint only, and the exact search settles the value. Draws used to be left
     to the exact search alone, which settles a not-win only once no branch meets its bound,
     and on many draws that bound kept growing: of the 11 draws among 600 random 8-card
     positions it settled 5 within 3,000,000 nodes; with the check all 11 are settled, 9 of
     them within 50,000 nodes (at most 485,000).

   The brute-force minimax over the real rule (third occurrence a draw, no table, no
   pruning) agrees with the solver, which ``tests/players`` checks on many small positions,
   and the solver with and without the proof-number search agree on larger ones.

3. Knowing that a move wins is not enough to win: a player who always picks *some* winning
   move can go round in circles into a repetition draw. Every stored win therefore carries
   the height of its proof; an OR node's proof is one more than its winning child's, an
   AND node's one more than its highest child's. Heights only ever decrease when re-stored,
   so a player who keeps the table between moves and always picks the winning move of
   lowest height (:meth:`Solver.best_move`) finds after every reply a position of lower
   height again: it wins in at most that many plies. That is how the ``perfect`` level
   never lets a proven win slip.

4. A position's value is exact as soon as it is proven, before every move's value is:
   :meth:`Solver.solve` settles the value first, reads off the table what that search proved
   about the moves (and what the value implies: in a lost position every move loses, in a
   drawn one no move wins), and searches the rest within what is left of the budget. The
   moves still open then are reported as unsettled, and the value stays exact.

>>> from rules.cards import Card
>>> state = core.State.from_position(trumps=(0, 1), hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
...                                  pile=(Card.parse("9C"), Card.parse("JC")), to_act=1, phase=core.RESPOND)
>>> solution = Solver().solve(state)
>>> solution.value, core.move_code(solution.best)     # seat 1 beats with its last card and wins
(1, 'KH')
>>> [(core.move_code(move), value) for move, value in solution.moves]
[('KH', 1), ('take', -1)]
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from rules import core
from rules.players.greedy import heuristic_move
from rules.players.proof_numbers import NOT_WIN, ProofNumberSearch, Table, plies_to_go_out

__all__ = ["Solution", "Solver", "SolverLimit", "hand_cards"]

UNBOUNDED: Final = 1 << 30
"""The dependency depth of a result that leaned on no repetition."""

_CHECK_EVERY: Final = 4096

_LAST: Final = 1 << 40
"""A rank after every proof or disproof number."""

FIRST_DEPTH: Final = 8
DEPTH_STEP: Final = 4
"""Iterative deepening of the exact Boolean searches: the first bound in plies, and how it grows."""

GUIDED_PLIES: Final = 16
"""In its first plies the exact search orders moves by the proof-number search's numbers (see the docstring)."""

REDUCTION: Final = 2
"""Late move reductions: at the proving seat's own moves, the second move in order is searched this many
plies less deep than the first (the greedy choice), and every later one twice as many less."""

FIRST_BUDGET: Final = 1000
"""The searches' first budget in nodes; it doubles each round."""

MAX_ENTRIES: Final = 1_000_000
"""How many positions the solver's table and the proof numbers hold together before it forgets what it
can find again. Each costs about 500 bytes, so a long search stays near half a gigabyte; without the
bound a 20-second search on a hard 14-card position grew to 800 MB, and memory grew with the time allowed."""


class SolverLimit(Exception):
    """The search ran out of its node or time budget."""


class _ShareSpent(Exception):
    """A move's share of the budget in :meth:`Solver.solve` is spent; the other open moves have their turn."""


class _Paused(Exception):
    """The exact search spent this round's budget; the proof-number search has its turn."""


@dataclass
class _Deepening:
    """How far the exact search's iterative deepening got: the bound, and the seat to act's result under it."""

    depth: int = FIRST_DEPTH
    cut_mine: bool | None = None
    """``None`` until the seat to act's search under ``depth`` is done; then whether a branch met the bound."""
    ask_mine: bool = True
    """``False`` when the seat is known not to win: its search is skipped (as if done, with nothing cut)."""


@dataclass(frozen=True)
class Solution:
    """A solved position: its exact value for the seat to act, a best move and the settled moves' values.

    Values are ``1`` (the seat to act wins), ``0`` (draw) and ``-1`` (it loses).
    """

    value: int
    best: int | None
    """A move of that value (among wins, the quickest); ``None`` only if none was settled within the budget."""
    moves: tuple[tuple[int, int], ...]
    """The moves whose values are settled, with them, in the order of the legal moves."""
    unsettled: tuple[int, ...] = ()
    """The moves whose values the budget did not settle (the position's value is exact all the same)."""


def hand_cards(state: core.State) -> int:
    """How many cards the hands hold together (the size measure of the solver's targets)."""
    return sum(hand.bit_count() for hand in state.hands)


def _order(state: core.State) -> list[int]:
    """The legal moves, most promising for the seat to act first (the greedy choice leads)."""
    moves = list(core.legal_moves(state))
    if len(moves) > 1:
        _put_first(moves, heuristic_move(state, state.hands))
    return moves


def _put_first(moves: list[int], first: int | None) -> None:
    """Move ``first`` to the front of ``moves`` if it is one of them."""
    if first is not None and first in moves:
        moves.remove(first)
        moves.insert(0, first)


class Solver:
    """The exact duel solver: alpha–beta in its Boolean form and proof-number search, taking turns on one table.

    ``max_nodes`` and ``seconds`` bound each call; beyond them :class:`SolverLimit` is raised.
    ``proof_numbers=False`` leaves out the proof-number search, ``exact_search=False`` the exact Boolean
    search (each for comparisons and tests; not both). The proof-number search alone settles a draw only
    when both seats' disproofs pass their check, and raises :class:`SolverLimit` on one where they do not.
    The table persists between calls (positions of one game share most of their subtrees); a position of
    another game (other trumps or rule options) empties it, and so does :meth:`clear`.
    """

    def __init__(
        self,
        max_nodes: int | None = None,
        seconds: float | None = None,
        proof_numbers: bool = True,
        max_entries: int = MAX_ENTRIES,
        exact_search: bool = True,
    ) -> None:
        if not (proof_numbers or exact_search):
            raise ValueError("the solver needs at least one of its two searches")
        self.max_nodes = max_nodes
        self.seconds = seconds
        self.proof_numbers = proof_numbers
        self.exact_search = exact_search
        self.max_entries = max_entries
        self.table: Table = ({}, {})
        self._forget_at = max_entries
        self.boolean_nodes = 0
        self._pause_at = UNBOUNDED
        self._limit_nodes = UNBOUNDED
        self._share_end = UNBOUNDED
        self._deadline = 0.0
        self._path: list[core.PositionKey] = []
        self._plies: list[int] = []
        self._drawn: frozenset[core.PositionKey] = frozenset()
        self._game: tuple[tuple[int, ...], bool] | None = None
        self._proofs = ProofNumberSearch(self.table, self._check_limits)
        self.first_moves: dict[core.PositionKey, int] = {}
        """Moves the exact search tries first at the positions named, before its own order: empty but where
        ``python -m benchmarks.move_order`` measures what knowing a proof's moves in advance would save."""

    @property
    def nodes(self) -> int:
        """The positions searched by the last call: proof-number iterations plus Boolean search nodes."""
        return self._proofs.iterations + self.boolean_nodes

    @property
    def stored(self) -> int:
        """How many positions the table and the proof numbers hold together (what :attr:`max_entries` bounds)."""
        return len(self.table[0]) + len(self.table[1]) + self._proofs.stored

    def clear(self) -> None:
        for entries in self.table:
            entries.clear()
        self._forget_at = self.max_entries

    def set_history(self, seen: Mapping[core.PositionKey, int]) -> None:
        """Tell the solver the positions the game has had (``State.seen``): from now on a position counted twice
        ends the game as a draw when it comes up again (rules §3.3.3), and the values are the game's own.

        Without a history, or while no position has come up twice, the values are those of the positions with
        repetitions counted from them, which are then the game's (the module's point 1). Once one has come up
        twice, the searches take its next occurrence for the draw it is, at every position they meet, so the
        values stay exact. The table is emptied whenever those positions change: its entries count on them.
        """
        drawn = frozenset(key for key, count in seen.items() if count >= core.REPETITIONS_FOR_DRAW - 1)
        if drawn != self._drawn:
            self.clear()
            self._drawn = drawn

    # --- public -------------------------------------------------------------------------

    def value(self, state: core.State) -> int:
        """The value of ``state`` for the seat to act, repetitions counted from here (and in the game's history, if
        :meth:`set_history` has told it)."""
        self._check_duel(state)
        if state.outcome is not None:
            return int(core.returns(state)[state.to_act])
        self._start(state)
        return self._value(state.fresh_copy(), state.to_act)

    def solve(self, state: core.State, every_move: bool = True) -> Solution:
        """The exact value of ``state``, a best move, and the value of every move settled within the budget.

        The position's value is settled first (:class:`SolverLimit` if it is not within the
        budget); it is exact from then on. What the search proved on the way settles many moves
        at once (a lost position's moves all lose), and the rest are searched, a best move first,
        until the budget runs out: the moves still open then are :attr:`Solution.unsettled`.
        With ``every_move=False`` the search stops at the first move found to have the position's value.
        """
        self._check_duel(state)
        if state.outcome is not None:
            raise ValueError("the game is over")
        self._start(state)
        work = state.fresh_copy()
        seat = work.to_act
        value = self._value(work.copy(), seat)
        legal = core.legal_moves(work)
        settled: dict[int, int] = {}
        for move in legal:
            token = core.apply(work, move)
            known = self._known(work, seat, value)
            if known is not None:
                settled[move] = known
            core.undo(work, token)
        # The open moves take turns, each with a share of nodes that doubles every round, so that one
        # hard move does not keep the easy ones after it open. A won position's best move is known from
        # the table; a drawn one's is searched first.
        open_moves = [move for move in _order(work) if move not in settled]
        share = FIRST_BUDGET
        try:
            while open_moves and (every_move or value not in settled.values()):
                for move in list(open_moves):
                    found = self._move_value_within(work, move, value, share)
                    if found is not None:
                        settled[move] = found
                        open_moves.remove(move)
                        if not every_move and found == value:
                            break
                share *= 2
        except SolverLimit:
            pass
        best = self._pick(work, seat, value, settled)
        return Solution(
            value=value,
            best=best,
            moves=tuple((move, settled[move]) for move in legal if move in settled),
            unsettled=tuple(move for move in legal if move not in settled),
        )

    def move_value(self, state: core.State, move: int) -> int:
        """The exact value of one legal ``move`` of ``state`` for the seat to act (repetitions counted from ``state``).

        Raises :class:`SolverLimit` if it is not settled within the budget.
        """
        self._check_duel(state)
        if state.outcome is not None:
            raise ValueError("the game is over")
        if move not in core.legal_moves(state):
            raise ValueError(f"move {move} is not a legal move here")
        self._start(state)
        work = state.copy()
        core.apply(work, move)
        if work.outcome is None and work.key() in self._drawn:
            return 0
        return self._value(work.fresh_copy(), state.to_act)

    def best_move(self, state: core.State) -> int:
        """A move of best value; among winning moves, the one of lowest proof height (see point 3).

        In a won position whose proof is in the table this costs no search at all. Raises
        :class:`SolverLimit` if no move of the position's value is settled within the budget.
        """
        if self.value(state) == 1:
            best = self._pick(state.fresh_copy(), state.to_act, 1, {})
            if best is not None:
                return best
        best = self.solve(state, every_move=False).best
        if best is None:
            raise SolverLimit("no move of the position's value settled within the budget")
        return best

    def proof_size(self, state: core.State, seat: int) -> tuple[int, int]:
        """The positions and the height of the proof of ``seat``'s win from ``state`` that the table holds.

        The proof the ``perfect`` player plays (:meth:`proof_strategy`); a position reached on two lines counts once.
        Raises :class:`ValueError` if the table holds no such proof (``python -m benchmarks.solver --proof``
        compares its size with the nodes searched).
        """
        strategy, height = self.proof_strategy(state, seat)
        return len(strategy), height

    def proof_strategy(self, state: core.State, seat: int) -> tuple[dict[core.PositionKey, int | None], int]:
        """The proof of ``seat``'s win from ``state`` that the table holds, and its height.

        Each position of the proof, with ``seat``'s move there (the winning move of lowest height, the one the
        ``perfect`` player plays) or ``None`` at the other seat's positions, whose every move the proof answers.
        Raises :class:`ValueError` if the table holds no such proof.
        """
        start = state.fresh_copy()
        height = self._win_height(start, seat)
        if height == UNBOUNDED:
            raise ValueError(f"the table holds no win of seat {seat} from this position")
        strategy: dict[core.PositionKey, int | None] = {}
        stack = [start]
        while stack:
            position = stack.pop()
            key = position.key()
            if position.outcome is not None or key in strategy:
                continue
            mine = None
            if position.to_act == seat:
                mine = self._pick(position, seat, 1, {})
                if mine is None:
                    raise ValueError("the table holds no winning move at a position of the proof")
            strategy[key] = mine
            for move in core.legal_moves(position) if mine is None else (mine,):
                child = position.fresh_copy()
                core.apply(child, move)
                if self._win_height(child, seat) == UNBOUNDED:
                    raise ValueError("a move of the other seat leads out of the proof")
                stack.append(child)
        return strategy, height

    def _known(self, child: core.State, seat: int, value: int) -> int | None:
        """The value for ``seat`` of the position ``child`` a move led to, if the table or ``value`` settles it.

        ``value`` is the exact value of the position before the move: if it is a loss, every move
        loses; if it is a draw, no move wins, so a move is a draw once the other seat is refuted.
        """
        if child.outcome is not None:
            return int(core.returns(child)[seat])
        key = child.key()
        if key in self._drawn:
            return 0
        if value == -1:
            return -1
        mine = self.table[seat].get(key)
        if mine is not None and mine >= 0:
            return 1
        theirs = self.table[1 - seat].get(key)
        if theirs is not None and theirs >= 0:
            return -1
        if theirs == NOT_WIN and (mine == NOT_WIN or value == 0):
            return 0
        return None

    def _pick(self, work: core.State, seat: int, value: int, settled: dict[int, int]) -> int | None:
        """A move of ``value``: among wins the lowest proof height in the table, else the first settled one."""
        best, best_height = None, UNBOUNDED
        for move in core.legal_moves(work):
            if value == 1:
                token = core.apply(work, move)
                height = self._win_height(work, seat)
                core.undo(work, token)
                if height < best_height:
                    best, best_height = move, height
            elif settled.get(move) == value and best is None:
                best = move
        return best

    # --- search -------------------------------------------------------------------------

    def _check_duel(self, state: core.State) -> None:
        if state.players != 2:
            raise ValueError(f"the solver handles the duel only, not {state.players} players")

    def _start(self, state: core.State) -> None:
        # The table's keys hold the hands, the pile, the seat and the phase; its entries hold for one game's trumps
        # and rule options (the cards out of play follow from the hands and the pile).
        game = (state.trumps, state.must_beat)
        if game != self._game:
            self.clear()
            self._game = game
        self.boolean_nodes = 0
        self._proofs = ProofNumberSearch(self.table, self._check_limits, self._drawn)
        self._limit_nodes = self.max_nodes if self.max_nodes is not None else UNBOUNDED
        self._deadline = time.monotonic() + self.seconds if self.seconds is not None else float("inf")
        if sys.getrecursionlimit() < 20000:
            sys.setrecursionlimit(20000)

    def _move_value_within(self, work: core.State, move: int, value: int, share: int) -> int | None:
        """The value of ``move`` in ``work`` (whose value is ``value``) if settled within ``share`` more nodes.

        What the search found stays in the table and the proof numbers, so the next, larger share resumes.
        """
        seat = work.to_act
        token = core.apply(work, move)
        self._share_end = self.nodes + share
        try:
            return self._value(work.fresh_copy(), seat, may_win=value == 1)
        except _ShareSpent:
            return None
        finally:
            self._share_end = UNBOUNDED
            core.undo(work, token)

    def _check_limits(self) -> None:
        if self.nodes >= self._limit_nodes:
            raise SolverLimit(f"more than {self.max_nodes} nodes")
        if self.nodes >= self._share_end:
            raise _ShareSpent
        if time.monotonic() > self._deadline:
            raise SolverLimit(f"more than {self.seconds} s")
        if self.stored > self._forget_at:
            self._forget()

    def _forget(self) -> None:
        """Keep memory bounded: drop everything the searches can find again, keeping the proven wins.

        Proven wins stay because the ``perfect`` player steers by their heights; not-wins,
        depth-bounded results and proof numbers are only saved work. Where the wins kept come near
        :attr:`max_entries`, the next forgetting waits until half of it has been stored again: checked
        against the bound alone it came every few thousand nodes, each time a pass over the whole table,
        and took more than half of the time of a 3,000,000-node search on a position from a game.
        """
        self._proofs.forget()
        for entries in self.table:
            for key in [key for key, entry in entries.items() if entry < 0]:
                del entries[key]
        self._forget_at = max(self.max_entries, self.stored + self.max_entries // 2)

    def _value(self, state: core.State, seat: int, may_win: bool = True) -> int:
        """``V*`` for ``seat``: the proof-number and the exact search take turns, budgets doubling, till one answers.

        ``may_win=False`` says that ``seat`` is known not to win (a move of a drawn position): only
        the other seat's question is asked.
        """
        if state.outcome is not None:
            return int(core.returns(state)[seat])
        proving: int | None = (seat if may_win else 1 - seat) if self.proof_numbers else None
        deepening = _Deepening(cut_mine=None if may_win else False, ask_mine=may_win)
        budget = FIRST_BUDGET
        # A search makes millions of short-lived tuples and no reference cycles: the cyclic collector's
        # passes over them (and over the table) cost a tenth of its time and find nothing, so it waits.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while True:
                if self.exact_search:
                    value = self._exact_value(state, seat, deepening, self._round_budget(budget))
                    if value is not None:
                        return value
                elif proving is None:
                    raise SolverLimit("the proof-number search alone cannot settle this position (a draw)")
                if proving is not None:
                    proven = self._proofs.prove(state, proving, self._round_budget(budget))
                    if proven:
                        return 1 if proving == seat else -1
                    if proven is False:
                        if proving == seat:
                            # The other seat's question is this one's mirror image: start it from these numbers.
                            self._proofs.seed_from(seat)
                            proving = 1 - seat
                        else:
                            # Neither seat wins if both disproofs pass their check; else the exact search decides.
                            if (not may_win or self._proofs.refuted(state, seat)) and self._proofs.refuted(
                                state, 1 - seat
                            ):
                                return 0
                            proving = None
                budget *= 2
        finally:
            if collecting:
                gc.enable()

    def _round_budget(self, budget: int) -> int:
        """``budget``, or the nodes left under ``max_nodes`` (or in a move's share, see :meth:`solve`) if fewer."""
        self._check_limits()
        return min(budget, self._limit_nodes - self.nodes, self._share_end - self.nodes)

    def _exact_value(self, state: core.State, seat: int, deepening: _Deepening, budget: int) -> int | None:
        """``V*`` for ``seat`` by Boolean searches deepened until one is exact; ``None`` once ``budget`` is spent.

        ``deepening`` keeps how far the searches got, and the table what they found, for the next call.
        """
        self._pause_at = self.boolean_nodes + budget
        try:
            while True:
                if deepening.cut_mine is None:
                    won, deepening.cut_mine = self._root_wins(state.copy(), seat, deepening.depth)
                    if won:
                        return 1
                won, cut_theirs = self._root_wins(state.copy(), 1 - seat, deepening.depth)
                if won:
                    return -1
                if not (deepening.cut_mine or cut_theirs):
                    return 0
                deepening.depth += DEPTH_STEP
                deepening.cut_mine = None if deepening.ask_mine else False
        except _Paused:
            return None

    def _win_height(self, state: core.State, seat: int) -> int:
        """The stored proof height of ``seat``'s win from ``state`` (0 if already won), else :data:`UNBOUNDED`."""
        if state.outcome is not None:
            return 0 if core.won(state.outcome, seat) else UNBOUNDED
        key = state.key()
        if key in self._drawn:
            return UNBOUNDED
        entry = self.table[seat].get(key, NOT_WIN)
        return entry if entry >= 0 else UNBOUNDED

    def _root_wins(self, state: core.State, seat: int, depth: int) -> tuple[bool, bool]:
        self._path, self._plies = ([], []) if state.phase == core.SECOND else ([state.key()], [0])
        won, _, _, cut = self._wins(state, seat, 0, depth)
        return won, cut

    def _ply_on_path(self, key: core.PositionKey) -> int:
        """The ply at which the position ``key`` stands on the line searched (the rules counted it there)."""
        return self._plies[self._path.index(key)]

    def _wins(
        self, state: core.State, x: int, ply: int, depth: int, key: core.PositionKey | None = None
    ) -> tuple[bool, int, int, bool]:
        """Whether seat ``x`` forces a win within ``depth`` plies (``key``: the position's, if the caller has it).

        Returns the result, the proof height of a win, the shallowest path depth a not-win
        leaned on, and whether a not-win met the depth bound (then it is not exact).
        """
        self.boolean_nodes += 1
        if self.boolean_nodes >= self._pause_at:
            raise _Paused
        if self.boolean_nodes % _CHECK_EVERY == 0:
            self._check_limits()
        table = self.table[x]
        if key is None:
            key = state.key()
        if ply and self._drawn and key in self._drawn:  # a draw by repetition in this game (set_history)
            return False, 0, UNBOUNDED, False
        entry = table.get(key)
        if entry is not None:
            if entry >= 0:
                return True, entry, UNBOUNDED, False
            if entry == NOT_WIN:
                return False, 0, UNBOUNDED, False
            if -entry - 2 >= depth:
                return False, 0, UNBOUNDED, True
        is_or = state.to_act == x
        if plies_to_go_out(state.hands[x].bit_count(), is_or, state.phase) > depth:
            return False, 0, UNBOUNDED, True
        path, plies = self._path, self._plies
        depends = UNBOUNDED
        height = 0
        cut = False
        moves = self._guided_order(state, x, is_or) if ply < GUIDED_PLIES and self.proof_numbers else _order(state)
        if self.first_moves:
            _put_first(moves, self.first_moves.get(key))
        for index, move in enumerate(moves):
            reach = depth - 1 - REDUCTION * min(index, 2) if is_or else depth - 1
            token = core.apply(state, move)
            child = token[6]
            if child is not None and state.repeats > 1:
                # Seen before on this line: the search's state counts repetitions from its root (fresh_copy),
                # so the rules' count says it, without a lookup of the line's positions at every move. A not-win
                # that leans on the line, before any outcome: were the rules to draw at the second occurrence,
                # that draw would lean on the line as much.
                won, child_height, child_depends, child_cut = False, 0, self._ply_on_path(child), False
            elif state.outcome is not None:
                won, child_height, child_depends, child_cut = core.won(state.outcome, x), 0, UNBOUNDED, False
            elif child is None:
                won, child_height, child_depends, child_cut = self._wins(state, x, ply + 1, reach)
            else:
                path.append(child)
                plies.append(ply + 1)
                won, child_height, child_depends, child_cut = self._wins(state, x, ply + 1, reach, child)
                path.pop()
                plies.pop()
            core.undo(state, token)
            if is_or:
                if won:
                    table[key] = child_height + 1
                    return True, child_height + 1, UNBOUNDED, False
                depends = min(depends, child_depends)
                cut = cut or child_cut
            else:
                if not won:
                    self._store_not_win(table, key, child_depends >= ply, child_cut, depth)
                    return False, 0, child_depends, child_cut
                height = max(height, child_height + 1)
        if is_or:
            self._store_not_win(table, key, depends >= ply, cut, depth)
            return False, 0, depends, cut
        table[key] = height
        return True, height, UNBOUNDED, False

    def _guided_order(self, state: core.State, x: int, is_or: bool) -> list[int]:
        """The legal moves, the most promising first as the proof-number search sees them.

        At ``x``'s own moves, the lowest proof number of ``x``'s win first; at the other seat's,
        the lowest disproof number. A move that ends the game comes first if it settles the
        question that way, last otherwise; moves the numbers do not know keep the greedy order.
        """
        moves = _order(state)
        if len(moves) < 2:
            return moves
        ranked = []
        for index, move in enumerate(moves):
            token = core.apply(state, move)
            if state.outcome is not None:
                rank = 0 if core.won(state.outcome, x) == is_or else _LAST
            else:
                rank = self._proofs.estimate(token[6] or state.key(), x, proof=is_or)
            core.undo(state, token)
            ranked.append((rank, index, move))
        ranked.sort()
        return [move for _, _, move in ranked]

    def _store_not_win(
        self, table: dict[core.PositionKey, int], key: core.PositionKey, independent: bool, cut: bool, depth: int
    ) -> None:
        # ``depth`` is at least 1 here: a node with fewer plies left than the seat needs to go out is
        # cut before it stores anything, however far a reduction lowered its bound. So the entry
        # -depth - 2 of a cut not-win never reads as NOT_WIN or as a win's height.
        if independent:
            table[key] = -depth - 2 if cut else NOT_WIN
