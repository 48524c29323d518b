"""The transition table turned into the step that plays it: one engine for :class:`rules.game.Game` and for search.

:func:`compile_table` reads the rows of a table (:data:`rules.table.TRANSITIONS` or a
variant) and nothing else. For each trigger in each phase it keeps the rows in order, as
:class:`Step` objects holding the very functions of :mod:`rules.core` the rows name; then:

- :attr:`Compiled.fire` takes any event (setup included) by walking those steps;
- :attr:`Compiled.apply` plays a move (a card or :data:`rules.core.TAKE`), and
  :attr:`Compiled.legal_mask` and :attr:`Compiled.legal_moves` OR together the masks of the
  play triggers the table takes in each phase (:data:`rules.core.MOVE_MASKS`).

Those three are the search path. :func:`python_of_steps` writes them out as Python, a
branch per phase and kind of move that *calls* the rule functions in the rows' order (text
made from the table alone: no rule's source is read), and ``trumps spec`` commits that code
as the module :mod:`rules.generated_step` (:func:`module_of_steps`), which CI regenerates
and compares. :func:`compile_table` plays through that module when it was written from
this very code and calls these very functions (:data:`GENERATED`, its ``STEPS_SHA256``);
otherwise (a variant table, a rule replaced by a test, or the real table edited and the
module not written again) it walks the steps, as :attr:`Compiled.fire` does: the same game,
slower, and :attr:`Compiled.why_interpreted` says why (:mod:`rules.core` warns when that
happens to the real table).

:func:`undo` takes back what :attr:`Compiled.apply` did, from the :data:`Undo` it returned.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from rules.cards import PACK_SIZE
from rules.table import AUTOMATIC, PLAY, STATES, Row

if TYPE_CHECKING:
    from rules.core import PositionKey, State
    from rules.outcome import Outcome

_TAKE: Final = PACK_SIZE  # rules.core.TAKE (core imports this module, so it is not imported from there)
_PHASES: Final = {name: number for number, name in enumerate(STATES)}


NOTHING_COUNTED: Final[PositionKey | None] = None
"""What a move leaves in :attr:`State.counted <rules.core.State>` unless it counts a position (then the position).

A name, not the literal ``None``: after ``state.counted = None`` mypy takes the attribute for ``None`` until
the end of the function, across the calls that set it, and mypyc, which compiles the step
(:mod:`rules.native`), would check it at run time as ``None``.
"""

Undo = tuple[int, int, tuple[int, ...], int, tuple[int, ...], "Outcome | None", "PositionKey | None", int]
"""What :attr:`Compiled.apply` returns, for :func:`undo`: the values a move may change, before it, at the
positions :class:`UndoFields` names: the seat that moved, the phase, the pile, that seat's hand (the only
hand a move changes), the order of going out, the outcome, and the position the move counted for the
repetition rule (it passed the turn), else ``None``; then how many times that position has now been
counted (:attr:`State.repeats <rules.core.State>`), so that :func:`undo` sets the count back without
looking it up first.

A plain tuple, made only by the step: a named one, even built the cheapest way, costs search ~25% of
its time (it is made on every ply; ``python -m benchmarks.undo_token``, figures in docs/machine.md), so
the names are :class:`UndoFields`, a view of it (``UndoFields(*token).counted``).
"""


class UndoFields(NamedTuple):
    """The names of an :data:`Undo` token's positions."""

    seat: int
    phase: int
    pile: tuple[int, ...]
    hand: int
    out_order: tuple[int, ...]
    outcome: Outcome | None
    counted: PositionKey | None
    repeats: int
    """The count of ``counted`` after the move (meaningless when nothing was counted)."""


def undo(state: State, token: Undo) -> None:
    """Take back the move that returned ``token`` (moves are undone last first)."""
    seat, phase, pile, hand, out_order, outcome, key, repeats = token
    state.hands[seat] = hand
    state.to_act = seat
    state.phase = phase
    state.pile = pile
    state.out_order = out_order
    state.outcome = outcome
    if key is not None:
        if repeats > 1:
            state.seen[key] = repeats - 1
        else:
            del state.seen[key]


class Step(NamedTuple):
    """A row of the table with its functions: conditions, callbacks, destination, and the rows of a transient one."""

    conditions: tuple[Callable[[State, Any], bool], ...]
    callbacks: tuple[Callable[[State, Any], None], ...]
    dest: int
    then: tuple[Step, ...] | None
    """The steps of the destination's automatic trigger (:data:`rules.table.AUTOMATIC`), if it is transient."""
    row: Row
    """The row itself, whose names the compiled code calls the functions by."""


class NoTransition(LookupError):
    """The table has no row for this trigger in this phase."""

    def __init__(self, trigger: str, phase: int) -> None:
        super().__init__(f"the rules have no {trigger} in phase {STATES[phase]}")
        self.trigger = trigger
        self.phase = phase


class StaleStep(UserWarning):
    """The real table plays without :data:`GENERATED`, which was not written from it (:mod:`rules.core` warns)."""


class Compiled(NamedTuple):
    """A transition table turned into what plays it."""

    apply: Callable[[State, int], Undo]
    """Play ``move`` (which must be legal) for the player to act; returns the token for :func:`undo`."""
    fire: Callable[[State, str, Any], None]
    """Take any event of the table (setup included) by trigger name, with its data."""
    legal_mask: Callable[[State], int]
    """The legal moves as one mask: bit ``c`` to play card ``c``, bit :data:`rules.core.TAKE` to take."""
    legal_moves: Callable[[State], tuple[int, ...]]
    """The legal moves of the player to act, cards in pack order then :data:`rules.core.TAKE`."""
    card_triggers: tuple[str | None, ...]
    """By phase, the trigger of playing a card there (``lead``, ``beat``, ``second``), if any."""
    triggers: tuple[frozenset[str], ...]
    """By phase, every trigger the table takes there."""
    steps: dict[tuple[str, int], tuple[Step, ...]]
    """By trigger and phase, the rows the table tries, in order."""
    source: str
    """The Python of :attr:`apply`, :attr:`legal_mask` and :attr:`legal_moves`, as :func:`python_of_steps` writes it."""
    uses: dict[str, Any]
    """The names :attr:`source` calls or reads, with the objects of :mod:`rules.core` they must be."""
    why_interpreted: str | None
    """``None`` when :attr:`apply`, :attr:`legal_mask` and :attr:`legal_moves` are those of :data:`GENERATED`;
    else why they are not, and they walk the steps instead."""


def _function(name: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """The function of :mod:`rules.core` a row names; a name that is not a rule of two arguments is refused."""
    function = namespace.get(name)
    if not callable(function):
        raise ValueError(f"the table names {name}, which is not a function of rules.core")
    try:
        inspect.signature(function).bind(None, None)
    except TypeError:
        raise ValueError(f"the table names {name}, which does not take (state, move)") from None
    return function  # type: ignore[no-any-return]


def _groups(rows: Iterable[Row]) -> dict[tuple[str, int], list[Row]]:
    groups: dict[tuple[str, int], list[Row]] = {}
    for row in rows:
        for state in (row.source, row.dest):
            if state not in _PHASES:
                raise ValueError(f"the table names the state {state}, which rules.table.STATES does not list")
        groups.setdefault((row.trigger, _PHASES[row.source]), []).append(row)
    for (trigger, phase), group in groups.items():
        if group[-1].conditions or any(not row.conditions for row in group[:-1]):
            raise ValueError(f"the rows of {trigger} in {STATES[phase]} must end with exactly one unconditional row")
    return groups


def _lines(group: tuple[Step, ...], indent: str) -> list[str]:
    """The rows of ``group`` as ``if``/``elif``/``else`` statements calling their functions on ``(state, move)``."""
    lines = []
    for number, step in enumerate(group):
        inner = indent + "    "
        if step.conditions:
            test = " and ".join(f"{condition}(state, move)" for condition in step.row.conditions)
            lines.append(f"{indent}{'elif' if number else 'if'} {test}:")
        elif number:
            lines.append(f"{indent}else:")
        else:
            inner = indent  # the only row: no test
        lines += [f"{inner}{callback}(state, move)" for callback in step.row.callbacks]
        if step.then is None:
            lines.append(f"{inner}state.phase = {step.dest}  # {STATES[step.dest]}")
        else:  # a transient state: its rows decide at once (no rule reads the phase on the way)
            lines.append(f"{inner}# {STATES[step.dest]}")
            lines += _lines(step.then, inner)
    return lines


def python_of_steps(
    play: tuple[tuple[tuple[Step, ...] | None, tuple[Step, ...] | None], ...],
    masks: tuple[tuple[str, ...], ...],
) -> str:
    """The Python of ``apply``, ``legal_mask`` and ``legal_moves``.

    ``play[phase]`` holds the steps of playing a card and of taking in that phase (``None``
    where the table has none), ``masks[phase]`` the mask functions of the moves it takes there.
    Phases whose code is the same share a branch.
    """
    source = [
        "def apply(state: State, move: int) -> Undo:",
        "    seat = state.to_act",
        "    phase = state.phase",
        "    pile = state.pile",
        "    hand = state.hands[seat]",
        "    out_order = state.out_order",
        "    outcome = state.outcome",
        "    state.counted = NOTHING_COUNTED",
        "    if move == TAKE:",
    ]
    takes = _branches({phase: _lines(take, " " * 12) for phase, (_, take) in enumerate(play) if take is not None})
    for number, (test, lines) in enumerate(takes):
        source += [f"        {'elif' if number else 'if'} {test}", *lines]
    if takes:
        source += ["        else:", '            raise NoTransition("take", phase)']
    else:
        source.append('        raise NoTransition("take", phase)')
    cards = _branches({phase: _lines(card, " " * 8) for phase, (card, _) in enumerate(play) if card is not None})
    for test, lines in cards:
        source += [f"    elif {test}", *lines]
    source += ["    else:", '        raise NoTransition("card", phase)']
    source.append("    return (seat, phase, pile, hand, out_order, outcome, state.counted, state.repeats)")
    ors = {phase: " | ".join(f"{function}(state)" for function in names) for phase, names in enumerate(masks) if names}
    source += ["", "", "def legal_mask(state: State) -> int:", "    phase = state.phase"]
    for test, lines in _branches({phase: [f"        return {mask}"] for phase, mask in ors.items()}):
        source += [f"    if {test}", *lines]
    source += ["    return 0", "", "", "def legal_moves(state: State) -> tuple[int, ...]:", "    phase = state.phase"]
    for test, lines in _branches({phase: [f"        mask = {mask}", *_LISTING] for phase, mask in ors.items()}):
        source += [f"    if {test}", *lines]
    source.append("    return ()")
    return "\n".join(source) + "\n"


def _branches(code: dict[int, list[str]]) -> list[tuple[str, list[str]]]:
    """The branches of ``code`` (phase → lines), as (test, lines): the most frequent phase (``respond``) first,
    then by number, phases with the same lines sharing a test."""
    shared: dict[tuple[str, ...], list[int]] = {}
    for phase in sorted(code, key=lambda phase: (phase != _PHASES["respond"], phase)):
        shared.setdefault(tuple(code[phase]), []).append(phase)
    branches = []
    for lines, phases in shared.items():
        names = ", ".join(STATES[phase] for phase in phases)
        test = f"phase == {phases[0]}" if len(phases) == 1 else f"phase in {tuple(phases)}"
        branches.append((f"{test}:  # {names}", list(lines)))
    return branches


_LISTING: Final = (
    "        return (",
    "            MOVES_0[mask & 255]",
    "            + MOVES_1[mask >> 8 & 255]",
    "            + MOVES_2[mask >> 16 & 255]",
    "            + MOVES_3[mask >> 24 & 255]",
    "            + MOVES_4[mask >> 32]",
    "        )",
)
""":func:`rules.core.moves_of_mask` written out in ``legal_moves``: search lists moves every ply, and a call costs."""

GENERATED: Final = "rules.generated_step"
"""The module ``trumps spec`` writes from the real table (:func:`module_of_steps`)."""


def module_of_steps(compiled: Compiled) -> str:
    """The text of :data:`GENERATED` for ``compiled``: its imports, the digest of its code, and the code."""
    core_names = sorted(
        {"State", *(name for name in compiled.uses if not name.startswith("MOVES_") and name != "NoTransition")},
        key=lambda name: (not name.isupper(), not name[0].isupper(), name),
    )
    return "\n".join(
        [
            '"""The step of the real transition table, written by ``trumps spec`` from rules/table.py: do not edit.',
            "",
            "Regenerate it with ``trumps spec --out spec --docs docs/generated`` after a change of the table.",
            ":func:`rules.step.compile_table` plays through these functions only while ``STEPS_SHA256`` is the",
            "SHA-256 of the code below as :func:`rules.step.python_of_steps` writes it from the table now;",
            "otherwise it walks the table's steps (the same game, slower) and :mod:`rules.core` warns.",
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "from typing import Final",
            "",
            "from rules.core import (",
            "    MOVES_BY_BYTE,",
            *(f"    {name}," for name in core_names),
            ")",
            "from rules.step import NOTHING_COUNTED, NoTransition, Undo",
            "",
            f'STEPS_SHA256: Final = "{steps_digest(compiled.source)}"',
            "",
            *(f"MOVES_{byte}: Final = MOVES_BY_BYTE[{byte}]" for byte in range(5)),
            "",
            "",
            compiled.source,
        ]
    )


def steps_digest(source: str) -> str:
    """The SHA-256 of the code :func:`python_of_steps` wrote, in hexadecimal: what :data:`GENERATED` was made from."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


REGENERATE: Final = "`trumps spec --out spec --docs docs/generated` writes it again"
"""The remedy when the real table no longer makes :data:`GENERATED`."""


def _generated(source: str, uses: dict[str, Any]) -> ModuleType | str:
    """:data:`GENERATED` if it holds ``source`` calling the functions of ``uses``; else why it cannot be played."""
    try:
        module = importlib.import_module(GENERATED)
    except (ImportError, SyntaxError) as error:  # deleted, or a rule it imports renamed, or a merge left it broken
        return f"{GENERATED} cannot be imported ({error}): {REGENERATE}"
    written = getattr(module, "STEPS_SHA256", None)
    if written is None:  # it is being imported, and its import of rules.core is what compiles the table now
        return f"{GENERATED} was imported before rules.core: import rules.core first"
    if written != steps_digest(source):
        return f"{GENERATED} was written from another table: {REGENERATE}"
    for name, value in uses.items():
        if getattr(module, name, None) is not value:
            return f"{GENERATED} calls another {name}"
    return module


def compile_table(rows: Iterable[Row]) -> Compiled:
    """Compile a transition table (:data:`rules.table.TRANSITIONS` or a variant) into what plays it."""
    from rules import core  # the rules this table names (core imports this module first)

    rules = vars(core)
    groups = _groups(rows)
    steps: dict[tuple[str, int], tuple[Step, ...]] = {}

    def steps_of(trigger: str, phase: int) -> tuple[Step, ...]:
        if (trigger, phase) not in steps:
            group = []
            for row in groups[trigger, phase]:
                dest = _PHASES[row.dest]
                automatic = AUTOMATIC.get(row.dest)
                if automatic is not None and (automatic, dest) not in groups:
                    raise ValueError(f"the transient state {row.dest} has no row of its trigger {automatic}")
                then = steps_of(automatic, dest) if automatic is not None else None
                conditions = tuple(_function(name, rules) for name in row.conditions)
                callbacks = tuple(_function(name, rules) for name in row.callbacks)
                group.append(Step(conditions, callbacks, dest, then, row))
            steps[trigger, phase] = tuple(group)
        return steps[trigger, phase]

    for trigger, phase in groups:
        steps_of(trigger, phase)

    phases = range(len(STATES))
    triggers = tuple(frozenset(trigger for trigger, source in groups if source == phase) for phase in phases)
    card_triggers: list[str | None] = []
    for phase in phases:
        cards = sorted(triggers[phase] & {"lead", "beat", "second"})
        if len(cards) > 1:
            raise ValueError(f"phase {STATES[phase]} takes two kinds of card: {cards}")
        card_triggers.append(cards[0] if cards else None)
    play = tuple(
        (
            steps.get((card, phase)) if card is not None else None,
            steps.get(("take", phase)),
        )
        for phase, card in enumerate(card_triggers)
    )
    mask_functions = tuple(
        tuple(core.MOVE_MASKS[kind] for kind in sorted(triggers[phase] & set(PLAY))) for phase in phases
    )
    source = python_of_steps(play, tuple(tuple(mask.__name__ for mask in masks) for masks in mask_functions))
    uses: dict[str, Any] = {
        "TAKE": _TAKE,
        "NoTransition": NoTransition,
        **{f"MOVES_{byte}": table for byte, table in enumerate(core.MOVES_BY_BYTE)},
        **{mask.__name__: mask for masks in mask_functions for mask in masks},
    }
    played = [group for pair in play for group in pair if group is not None]
    while played:
        for step in played.pop():
            names = (*step.row.conditions, *step.row.callbacks)
            uses.update(zip(names, (*step.conditions, *step.callbacks), strict=True))
            if step.then is not None:
                played.append(step.then)

    def fire(state: State, trigger: str, data: Any) -> None:
        group: tuple[Step, ...] | None = steps.get((trigger, state.phase))
        if group is None:
            raise NoTransition(trigger, state.phase)
        state.counted = NOTHING_COUNTED
        while group is not None:
            for step in group:
                if all(condition(state, data) for condition in step.conditions):
                    for callback in step.callbacks:
                        callback(state, data)
                    state.phase = step.dest
                    group = step.then
                    break

    def apply(state: State, move: int) -> Undo:
        seat = state.to_act
        phase = state.phase
        before = (seat, phase, state.pile, state.hands[seat], state.out_order, state.outcome)
        state.counted = NOTHING_COUNTED
        trigger = "take" if move == _TAKE else card_triggers[phase]
        if trigger is None:
            raise NoTransition("card", phase)
        fire(state, trigger, move)
        return (*before, state.counted, state.repeats)

    def legal_mask(state: State) -> int:
        mask = 0
        for moves in mask_functions[state.phase]:
            mask |= moves(state)
        return mask

    def legal_moves(state: State) -> tuple[int, ...]:
        return core.moves_of_mask(legal_mask(state))

    tables = (tuple(card_triggers), triggers, steps, source, uses)
    generated = _generated(source, uses)
    if isinstance(generated, str):
        return Compiled(apply, fire, legal_mask, legal_moves, *tables, generated)
    return Compiled(generated.apply, fire, generated.legal_mask, generated.legal_moves, *tables, None)
