"""Depth-first proof-number search (df-pn): does one seat of a duel force a win?

The solver's fast prover (see :mod:`rules.players.solver`). It grows a proof for the
question "can seat ``x`` force a win from here?" best first: every position carries a
*proof number* (how many more positions must be proven, at least, to prove it) and a
*disproof number*; the search always expands the position that looks cheapest to settle
the root. Positions the seat to prove has to answer are AND nodes, its own moves OR nodes.

Choices that make it work on this game (each measured on random 12-card positions):

- **Distance-based first numbers.** A position seen for the first time gets the fewest
  plies its seat needs to go out (:func:`plies_to_go_out`) as its proof number and the
  other seat's as its disproof number, times the number of moves at the player's side
  that makes settling it harder. A proof then heads for the lines in which ``x`` sheds cards.
- **The 1 + ε trick** (Pawlewicz and Lew): a child is searched until its number exceeds
  the second best's by a factor :data:`EPSILON`, not by one, so the search does not keep
  switching between two equal children.
- **Cycles are not a win.** A move back to a position of the current path is a
  disproof for ``x`` (the endless game is a draw, see the solver's docstring). A
  disproof that leans on a position of the path above the node is stored with that
  position and trusted only while it is on the path again.
- **Moves in pack order.** Trying the greedy choice first, which helps the Boolean search a
  lot, made this search slower: the numbers already say where to look.

What it returns is asymmetric on purpose: a *proof* is a finite tree of moves in which no
position repeats, made of positions each proven before their parent, so it holds whatever
the path (it is stored in the shared table with its height). A *disproof* can still lean on
the path in rare cases the bookkeeping above does not capture, so the solver takes a
disproof only as a hint and settles a position that neither seat can be proven to win with
its exact Boolean search.

>>> from rules.cards import Card
>>> state = core.State.from_position(trumps=(0, 1), hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
...                                  pile=(Card.parse("9C"), Card.parse("JC")), to_act=1, phase=core.RESPOND)
>>> search = ProofNumberSearch({})
>>> search.prove(state, seat=1, budget=100), search.prove(state, seat=0, budget=100)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable

from rules import core

__all__ = ["EPSILON", "ProofNumberSearch", "plies_to_go_out"]

INFINITE = 10**9
"""A proof or disproof number that can no longer be reached (the position is settled)."""

EPSILON = 1.5
"""The 1 + ε trick's factor; 1.5 did best of 1, 1.25, 1.5, 2 and 3 on random 12-card positions."""

_CHECK_EVERY = 4096

TableKey = tuple[core.PositionKey, int]
Numbers = tuple[int, int] | tuple[int, int, core.PositionKey]
"""``(proof, disproof)``; a disproof that leans on the path also names the path position it leans on."""


class OutOfBudget(Exception):
    """This call's budget of iterations is spent; the numbers found so far are kept."""


def plies_to_go_out(cards: int, to_act: bool, phase: int) -> int:
    """A lower bound on the plies before a duel seat holding ``cards`` can go out.

    Each card takes a ply of its own, and the seat plays at most two in a row (a beat and
    its second card) before the other seat has a ply; a lead or a second card ends its run.

    >>> plies_to_go_out(1, to_act=True, phase=core.RESPOND)   # beat with the last card
    1
    >>> plies_to_go_out(3, to_act=True, phase=core.LEAD)      # lead, (reply), beat, second
    4
    >>> plies_to_go_out(3, to_act=False, phase=core.RESPOND)  # (reply), beat, second, (reply), lead or beat
    5
    """
    if not to_act:
        return cards + (cards + 1) // 2
    if phase == core.RESPOND:
        return cards + (cards - 1) // 2
    return cards + cards // 2


def _first_numbers(state: core.State, x: int) -> tuple[int, int]:
    """The numbers of a position not searched yet: the distances to going out, times the branching against."""
    moves = core.legal_mask(state).bit_count()
    x_to_act = state.to_act == x
    to_win = plies_to_go_out(state.hands[x].bit_count(), x_to_act, state.phase)
    to_lose = plies_to_go_out(state.hands[1 - x].bit_count(), not x_to_act, state.phase)
    return (to_win, to_lose * moves) if x_to_act else (to_win * moves, to_lose)


class ProofNumberSearch:
    """df-pn for the duel, on :mod:`rules.core`.

    ``table`` is shared with the solver: ``table[(key, x)]`` is the proof height of a win of
    seat ``x`` (``>= 0``), or ``-1`` when ``x`` is proven not to win; this search reads both
    and writes the heights of the wins it proves. Its own numbers live as long as the object
    and are kept between calls of :meth:`prove`, so a call with a larger budget resumes.
    ``check`` is called every few thousand iterations (the solver's node and time limits).
    """

    def __init__(self, table: dict[TableKey, int], check: Callable[[], None] | None = None) -> None:
        self.table = table
        self.check = check
        self.iterations = 0
        self._numbers: tuple[dict[core.PositionKey, Numbers], dict[core.PositionKey, Numbers]] = ({}, {})
        self._limit = 0
        self._x = 0
        self._path: dict[core.PositionKey, int] = {}
        self._trail: list[core.PositionKey] = []

    def prove(self, state: core.State, seat: int, budget: int) -> bool | None:
        """``True`` if ``seat`` is proven to force a win, ``False`` if disproven (a hint), ``None`` out of budget."""
        if state.outcome is not None:
            return state.outcome[0] == "loss" and state.outcome[1] != seat
        work = state.copy()
        work.seen = {}
        key = work.key()
        known = self.table.get((key, seat))
        if known is not None and known >= -1:
            return known >= 0
        self._x = seat
        self._path = {key: 0}
        self._trail = [key]
        self._limit = self.iterations + budget
        try:
            proof, _, _ = self._search(work, key, 0, INFINITE - 1, INFINITE - 1)
        except OutOfBudget:
            return None
        return proof == 0

    def _search(
        self, state: core.State, key: core.PositionKey, depth: int, proof_limit: int, disproof_limit: int
    ) -> tuple[int, int, int]:
        """Search ``state`` (at ``depth`` on the path) until its numbers reach a limit; returns them.

        The third value is the path depth a disproof leans on (:data:`INFINITE` if none).
        """
        x = self._x
        numbers = self._numbers[x]
        table = self.table
        path = self._path
        is_or = state.to_act == x
        children: list[tuple[int, core.PositionKey | None, tuple[int, int]]] = []
        for move in core.legal_moves(state):
            token = core.apply(state, move)
            outcome = state.outcome
            if outcome is None:
                after = (tuple(state.hands), state.pile, state.to_act, state.phase)
                children.append((move, after, _first_numbers(state, x)))
            elif outcome[0] == "loss" and outcome[1] != x:
                children.append((move, None, (0, INFINITE)))
            else:
                children.append((move, None, (INFINITE, 0)))
            core.undo(state, token)
        while True:
            self.iterations += 1
            if self.iterations >= self._limit:
                raise OutOfBudget
            if self.check is not None and self.iterations % _CHECK_EVERY == 0:
                self.check()
            # The best child, the second best number and the sum, for the node's numbers; and the
            # path depths the disproved children lean on.
            best = -1
            first = second = INFINITE + 1
            best_proof = best_disproof = total = 0
            leans_all = INFINITE
            leans_one = -1
            for index, (_, child, fresh) in enumerate(children):
                leans = INFINITE
                if child is None:
                    proof, disproof = fresh
                elif child in path:
                    proof, disproof = INFINITE, 0
                    leans = path[child]
                else:
                    entry = numbers.get(child)
                    if entry is None:
                        height = table.get((child, x))
                        if height is None:
                            proof, disproof = fresh
                        elif height >= 0:
                            proof, disproof = 0, INFINITE
                        elif height == -1:
                            proof, disproof = INFINITE, 0
                        else:
                            proof, disproof = fresh
                    elif len(entry) == 2:
                        proof, disproof = entry[0], entry[1]
                    else:
                        at = path.get(entry[2])
                        if at is None:
                            proof, disproof = fresh
                        else:
                            proof, disproof = INFINITE, 0
                            leans = at
                if disproof == 0:
                    leans_all = min(leans_all, leans)
                    leans_one = max(leans_one, leans)
                ranked = proof if is_or else disproof
                total += disproof if is_or else proof
                if ranked < first:
                    second = first
                    first = ranked
                    best = index
                    best_proof, best_disproof = proof, disproof
                elif ranked < second:
                    second = ranked
            total = min(total, INFINITE)
            node_proof, node_disproof = (first, total) if is_or else (total, first)
            if node_proof == 0:
                numbers[key] = (0, INFINITE)
                table[(key, x)] = self._height(children, is_or)
                return 0, INFINITE, INFINITE
            if node_disproof == 0:
                leans = leans_all if is_or else leans_one
                numbers[key] = (INFINITE, 0, self._trail[leans]) if leans < depth else (INFINITE, 0)
                return INFINITE, 0, leans
            if node_proof >= proof_limit or node_disproof >= disproof_limit:
                numbers[key] = (node_proof, node_disproof)
                return node_proof, node_disproof, INFINITE
            move, target, _ = children[best]
            assert target is not None
            if is_or:
                child_proof_limit = min(proof_limit, int(second * EPSILON) + 1)
                child_disproof_limit = min(disproof_limit - node_disproof + best_disproof, INFINITE - 1)
            else:
                child_disproof_limit = min(disproof_limit, int(second * EPSILON) + 1)
                child_proof_limit = min(proof_limit - node_proof + best_proof, INFINITE - 1)
            token = core.apply(state, move)
            path[target] = depth + 1
            self._trail.append(target)
            self._search(state, target, depth + 1, child_proof_limit, child_disproof_limit)
            self._trail.pop()
            del path[target]
            core.undo(state, token)

    def _height(self, children: list[tuple[int, core.PositionKey | None, tuple[int, int]]], is_or: bool) -> int:
        """The proof height of a node just proven: one more than its best (OR) or worst (AND) proven child's."""
        heights = []
        for _, child, fresh in children:
            if child is None:
                if fresh[0] == 0:
                    heights.append(0)
            elif child not in self._path:
                height = self.table.get((child, self._x), -1)
                if height >= 0:
                    heights.append(height)
        return 1 + (min(heights) if is_or else max(heights))
