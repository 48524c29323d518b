"""How the ``trumps`` command speaks about itself: ``--help`` with plain placeholders, one-line usage errors.

Typer writes a required argument as ``{log}`` and adds a type to every parameter (``<str>``,
``<bool>``, ``<int range>``); a person expects ``LOG``, ``N``, ``SEED``. And a mistyped value gets
a framed box of several lines; one line that names the option and says what is wrong is enough.

Typer 0.29 carries its own copy of click (``typer._click``, private), older ones use click itself:
so parameters are recognised by typer's public classes and errors by their class names.

The sentences of a usage error are typer's and click's, English in their code (typer 0.29's copy of
click writes them as f-strings, not gettext messages, and a value's complaint comes from pydantic):
:func:`said_by_typer` recognises each by its English pattern, one of :data:`TYPER_SENTENCES`, and says it
from our catalog; one it does not know stays English.
"""

from __future__ import annotations

import errno
import io
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import typer
import typer.core

from rules.locale import LANGUAGES, N_, _, language, number, said

if TYPE_CHECKING:
    from rules.game import Game

COUNT = "N"
"""The placeholder of a whole number that counts something (games, hands, players)."""

_NAMED = {
    "seed": "SEED",
    "port": "PORT",
    "seat": "SEAT",
    "dealer": "SEAT",
    "save": "FILE",
    "computer_delay": "SECONDS",
    "hello_timeout": "SECONDS",
    "idle_table_seconds": "SECONDS",
    "think": "SECONDS",
    "log_level": "LEVEL",
    "sync": "MODE",
    "trusted_proxies": "ADDRESSES",
}
"""What a value is called where its option's own name would say it badly (``--save SAVE``,
``--hello-timeout HELLO_TIMEOUT``); whole numbers that are not counts keep their own name."""


class _CheckedWhenGiven:
    """Typer's check of a parameter's value, built only for a value that needs one: typer 0.29 builds each check
    with pydantic, whose import would cost every ``--help`` (where an option not given is ``None``, and
    ``--lang ru`` a word) a fifth of a second.

    A number is first read as :mod:`rules.digits` reads it (ASCII digits, a decimal point for a number that need not
    be whole): pydantic alone would take ``" 7"``, ``+3``, ``1_0`` or ``5.0`` for a whole number, ``-5`` for a
    seed (dealt as 5), ``inf`` or ``1e3`` for seconds. Typer's check then judges the number's range."""

    def __init__(self, built: Any) -> None:
        self._built = built

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None and not (param.multiple or param.nargs == -1):
            return None  # what typer's check answers for it, without building the check
        kind = param.type_descriptor.annotation
        if isinstance(value, str) and kind is str:
            return value  # a word where a word is expected: nothing to check
        if isinstance(value, str) and kind in (int, float):
            from rules.digits import decimal_number, whole_number

            try:
                value = whole_number(param.opts[0], value) if kind is int else decimal_number(param.opts[0], value)
            except ValueError as error:
                raise _Mistyped(said(error), ctx=ctx, param=param) from None
        return self._built().coerce(value, param=param, ctx=ctx)


class _Mistyped(typer.BadParameter):
    """A value refused in a sentence that names its option itself (:mod:`rules.digits`), said as it is."""

    def format_message(self) -> str:
        return self.message


class _Argument(typer.core.TyperArgument):
    def get_runtime_param(self) -> Any:
        return _CheckedWhenGiven(super().get_runtime_param)

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


class _Option(typer.core.TyperOption):
    def get_runtime_param(self) -> Any:
        return _CheckedWhenGiven(super().get_runtime_param)

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar


def _whole_number(param: Any) -> bool:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return descriptor.annotation is int
    return getattr(getattr(param, "type", None), "name", "") in ("integer", "integer range")


def placeholder(param: typer.core.TyperArgument | typer.core.TyperOption) -> str:
    """What a value of ``param`` is called in ``--help``: ``LOG``, ``N``, ``SEED``, ``SECONDS``, ``HOST``."""
    name = (param.name or "value").lower()
    if name in _NAMED:
        return _NAMED[name]
    if isinstance(param, typer.core.TyperOption) and _whole_number(param):
        return COUNT
    return name.upper()


def readable(command: Any) -> None:
    """Give every parameter of ``command`` (and its subcommands) a plain placeholder and no type label."""
    for param in command.params:
        if isinstance(param, typer.core.TyperArgument):
            param.metavar = param.metavar or placeholder(param)
            param.__class__ = _Argument
        elif isinstance(param, typer.core.TyperOption):
            if not param.is_flag:
                param.metavar = param.metavar or placeholder(param)
            param.__class__ = _Option
    built = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = built(ctx)
        if isinstance(option, typer.core.TyperOption):
            option.__class__ = _Option
        return option

    command.get_help_option = help_option
    parse_args = command.parse_args

    def parse_args_here(ctx: Any, args: list[str]) -> Any:
        # Typer's parser refuses an option that takes no value given one, or one missing its value, without saying
        # in which command: the refusal then names the command whose help tells how to use it (run()).
        try:
            return parse_args(ctx, args)
        except Exception as error:
            if _kind(error, "UsageError") and getattr(error, "ctx", None) is None:
                error.ctx = ctx  # type: ignore[attr-defined]
            raise

    command.parse_args = parse_args_here
    for sub in getattr(command, "commands", {}).values():
        readable(sub)


def _kind(error: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(error).__mro__)


TYPER_SENTENCES = (
    # typer 0.29 (its copy of click); click 8 itself says most of them the same way
    N_("Missing argument {name}"),
    N_("Missing option {name}"),
    N_("Missing parameter: {name}"),
    N_("Missing command"),
    N_("No such command {name}"),
    N_("No such option: {name}"),
    N_("No such option: {name} (Possible options: {names})"),
    N_("No such option: {name} Did you mean {other}?"),
    N_("Option {name} requires an argument"),
    N_("Option {name} requires {count} arguments"),
    N_("Option {name} does not take a value"),
    N_("Got unexpected extra argument(s) ({arguments})"),
    N_("Got unexpected extra argument ({arguments})"),
    N_("Got unexpected extra arguments ({arguments})"),
    N_("Invalid value for {name}: {reason}"),
    N_("Invalid value for {name} (env var: {variable}): {reason}"),  # a value from the option's variable
    N_("Invalid value: {reason}"),
    # pydantic, which checks the values for typer 0.29
    N_("Input should be a valid boolean, unable to interpret input"),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid integer, got a number with a fractional part"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be greater than or equal to {limit}"),
    N_("Input should be less than or equal to {limit}"),
    N_("Input should be greater than {limit}"),
    N_("Input should be less than {limit}"),
    # click 8 (with typer before 0.29)
    N_("{value} is not a valid integer"),
    N_("{value} is not a valid float"),
    N_("{value} is not in the range {range}"),
)
"""The sentences of typer, click and pydantic that a usage error of ``trumps`` can show, as messages: a field
``{reason}`` is itself one of these sentences; the others are what the user typed or a name, kept as written."""

_FIELD = re.compile(r"\{(\w+)\}")
_WIDE = {"reason", "names", "arguments"}
"""Fields that may hold spaces (a sentence, a list); any other is one word or one quoted value."""
_ANY = ".+?"
_ONE = r"'[^']*'|[^\s']+"


def _pattern(sentence: str) -> re.Pattern[str]:
    parts = _FIELD.split(sentence)  # literal, field, literal, field, ...
    pieces = []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            pieces.append(re.escape(part))
        else:
            pieces.append(f"(?P<{part}>{_ANY if part in _WIDE else _ONE})")
    return re.compile("".join(pieces))


# The most specific sentence first: one with more fixed words wins over one that a field could stretch to cover.
_PATTERNS = sorted(
    ((_pattern(sentence), sentence) for sentence in TYPER_SENTENCES),
    key=lambda pair: -len(_FIELD.sub("", pair[1])),
)


def said_by_typer(sentence: str) -> str:
    """A sentence of typer or click (or pydantic's about a value) in the language spoken, without its final stop.

    >>> from rules.locale import use_language
    >>> use_language("ru"); said_by_typer("Invalid value for '--games': Input should be greater than or equal to 1")
    "недопустимое значение '--games': должно быть не меньше 1"
    >>> use_language("en"); said_by_typer("No such option: --gam (Possible options: --games).")
    'No such option: --gam (Possible options: --games)'
    """
    sentence = sentence.strip().rstrip(".")
    if language() == "en":
        return sentence
    for pattern, message in _PATTERNS:
        found = pattern.fullmatch(sentence)
        if found is not None:
            fields = found.groupdict()
            if "reason" in fields:
                fields["reason"] = said_by_typer(fields["reason"])
            if re.fullmatch(
                r"-?\d+(\.\d+)?", fields.get("limit", "")
            ):  # pydantic's bound, as the language writes numbers
                fields["limit"] = number(float(fields["limit"]), None)
            return _(message).format(**fields)
    return sentence


_OS_REASONS = {
    errno.ENOENT: N_("no such file or directory"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("is a directory"),
    errno.ENOTDIR: N_("not a directory"),
    errno.EROFS: N_("read-only file system"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EADDRNOTAVAIL: N_("the address is not one of this machine's"),
    errno.ECONNREFUSED: N_("connection refused"),
    errno.EBADF: N_("bad file descriptor"),
}

STANDARD_INPUT_CLOSED = N_("standard input is closed")
"""Why ``-`` cannot be read when the command was started with standard input closed (``<&-``)."""


def os_reason(error: OSError, *, spoken: bool = True) -> str:
    """Why the system refused: a usual reason in the language spoken, else (and in English, or when not ``spoken``)
    as the system says it."""
    reason = STANDARD_INPUT_CLOSED if error.strerror == STANDARD_INPUT_CLOSED else _OS_REASONS.get(error.errno or 0)
    if spoken and reason is not None and language() != "en":
        return _(reason)
    return error.strerror or str(error)


def read_log_argument(source: str) -> Game:
    """The game of the log ``source`` (the ``LOG`` of ``trumps replay``, ``review`` and ``solve``: a path, or ``-``
    for standard input), read a line at a time, so that a bad line is refused as soon as it has come (log format
    §L6.5) whichever command reads it.

    Raises :class:`~rules.log.LogError` at the first bad line, and :class:`OSError` when the log cannot be read, a
    closed standard input included (Python then has no ``sys.stdin`` at all).
    """
    from rules.log import read_log_stream

    with open_input(source) as file:
        return read_log_stream(file)


def cannot_read(source: str, error: OSError) -> str:
    """The refusal of a log that cannot be read, in the language spoken (``trumps replay``'s stays English: log
    format §L6.3)."""
    return _("cannot read {path}: {why}").format(path=shell_word(source), why=os_reason(error))


@contextmanager
def open_input(source: str) -> Iterator[BinaryIO]:
    """The file ``source`` opened for reading bytes, or standard input for ``-`` (left open afterwards).

    Raises :class:`OSError` when it cannot be opened, a closed standard input included.
    """
    if source == "-":
        if sys.stdin is None:
            raise OSError(errno.EBADF, STANDARD_INPUT_CLOSED)
        try:
            yield sys.stdin.buffer
        finally:
            _give_back_what_was_not_read(sys.stdin.buffer)
        return
    with open(source, "rb") as file:
        yield file


def _give_back_what_was_not_read(file: BinaryIO) -> None:
    """Leave standard input, where it is a file (``< game.jsonl``), just after the last line read, not after the
    block read ahead: what follows the line a command stopped at is there for whatever reads the file next (log
    format §L6.5). A pipe cannot give back what it has passed on."""
    try:
        if file.seekable():
            os.lseek(file.fileno(), file.tell(), os.SEEK_SET)
    except (OSError, ValueError):
        pass


_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def host_address(host: str) -> bool:
    """Whether ``host`` (``trumps serve --host``, the host of ``trumps loadtest --url``) is an IP address
    (``127.0.0.1``, ``::``, as :mod:`ipaddress` reads it) or a host name (letters, digits and hyphens,
    dot-separated, the last part not all digits).

    The system's resolver would also take ``127.1``, ``0`` (every interface), ``2130706433`` or ``0x7f.1`` for
    IPv4 addresses, and asyncio ``""`` for every interface: shorthand no one types on purpose, refused.

    >>> [host_address(host) for host in ("127.0.0.1", "::", "localhost", "game-1.example.org")]
    [True, True, True, True]
    >>> [host_address(host) for host in ("", "0", "127.1", "0x7f.1", " 127.0.0.1", "localhost.", "a_b")]
    [False, False, False, False, False, False, False]
    """
    import ipaddress

    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.split(".")
    return len(host) <= 253 and all(_LABEL.fullmatch(label) for label in labels) and not labels[-1].isdigit()


_PLAIN = re.compile(r"[\w@%+=:,./-]+")
"""A word a shell reads as it is: letters and digits of any script, and signs that mean nothing to it."""

_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
"""What ``$'…'`` writes with a backslash: itself and its quote, and the usual control characters by name."""


def shell_word(text: str) -> str:
    """``text``, a path or a value the user typed, written as a shell reads it back, on one line.

    As it is when it needs no quotes; in single quotes when it holds a space or a sign the shell gives a meaning;
    as ``$'…'`` with backslash escapes when it holds a character that cannot be printed, a line feed say, as GNU
    tools show file names. So a message that names it stays one line, and says exactly what was typed.

    >>> print(shell_word("game.jsonl"), shell_word("my game.jsonl"), shell_word(""), shell_word("партия"))
    game.jsonl 'my game.jsonl' '' партия
    >>> print(shell_word("a\\nb.jsonl"), shell_word("it's\\t"), shell_word("\\udcff\\x00"))
    $'a\\nb.jsonl' $'it\\'s\\t' $'\\xff\\x00'
    """
    if _PLAIN.fullmatch(text):
        return text
    if text.isprintable():
        return shlex.quote(text)
    return "$'" + "".join(_escaped(char) for char in text) + "'"


def _escaped(char: str) -> str:
    """One character inside ``$'…'``: a printable one as it is, any other as its UTF-8 bytes, ``\\xHH`` each."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char.isprintable():
        return char
    if "\udc80" <= char <= "\udcff":  # a byte of a name that is not UTF-8, as Python decodes it: that byte
        return f"\\x{ord(char) - 0xDC00:02x}"
    return "".join(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))


def program() -> str:
    """How to run this ``trumps`` again, as a person would type it: ``trumps`` when that is the command on the
    ``PATH``, else the path of the running executable (``.venv/bin/trumps`` after the README's install, whose
    ``bin`` folder is not on the ``PATH``), relative to the current folder when inside it.
    """
    here = Path(sys.argv[0]) if sys.argv and Path(sys.argv[0]).name == "trumps" else None
    beside = Path(sys.executable).parent / "trumps"  # run as python -m or -c: the script of this environment
    for candidate in (here, beside):
        if candidate is not None and candidate.is_file():
            return typed_path(candidate, "trumps")
    return "trumps"


def pip() -> str:
    """How to run the pip of the environment ``trumps`` runs in: ``.venv/bin/pip``, or ``python -m pip``."""
    beside = Path(sys.executable).parent / "pip"
    if beside.is_file():
        return typed_path(beside, "pip")
    return f"{shell_word(sys.executable)} -m pip"


def typed_path(path: Path, command: str) -> str:
    """``command`` if the ``PATH`` finds ``path`` by that name; else ``path`` as typed from here."""
    found = shutil.which(command)
    if found is not None and Path(found).resolve() == path.resolve():
        return command
    relative = os.path.relpath(path.absolute())
    return shell_word(str(path.absolute()) if relative.startswith("..") else relative)


def refuse_unknown_language(lang: str | None) -> None:
    """Refuse a ``--lang`` that is not one of :data:`~rules.locale.LANGUAGES` in one line, exit 2."""
    if lang is not None and lang not in LANGUAGES:
        typer.echo(
            _("--lang {lang}: choose one of {languages}").format(lang=shell_word(lang), languages=", ".join(LANGUAGES)),
            err=True,
        )
        raise typer.Exit(2)


def run(command: Any, name: str) -> None:
    """Run ``command`` as the program ``name``; a usage error is one line on standard error, exit 2."""
    writing(lambda: _run(command, name))


def writing(action: Callable[[], object]) -> None:
    """Do ``action``; if it cannot write to standard output (a full disk, say, or standard output closed), say so in
    one line, exit 1. (A closed pipe, as under ``| head``, ends the command quietly before this: click's.)"""
    try:
        action()
    except OSError as error:
        if not _writing_standard_output(error):
            raise
        if isinstance(error, BrokenPipeError):  # the reader has all it wanted: nothing to say
            _let_go_of_standard_output()
            sys.exit(1)
        typer.echo(_("cannot write to standard output: {why}").format(why=os_reason(error)), err=True)
        _let_go_of_standard_output()
        sys.exit(1)


def _run(command: Any, name: str) -> None:
    try:
        result: Any = command.main(prog_name=name, standalone_mode=False)
    except typer.Abort:
        typer.echo("", err=True)
        sys.exit(1)
    except Exception as error:
        if _kind(error, "NoArgsIsHelpError"):
            typer.echo(error.ctx.get_help())  # type: ignore[attr-defined]
            sys.exit(0)
        if _kind(error, "UsageError"):
            ctx = getattr(error, "ctx", None)
            path = ctx.command_path if ctx is not None else name
            message = said_by_typer(error.format_message())  # type: ignore[attr-defined]
            typer.echo(_("{path}: {message} (see {path} --help)").format(path=path, message=message), err=True)
            sys.exit(2)
        if _kind(error, "ClickException"):
            typer.echo(f"{name}: {said_by_typer(error.format_message())}", err=True)  # type: ignore[attr-defined]
            sys.exit(1)
        raise
    sys.exit(result if isinstance(result, int) else 0)


class ClosedOutput(io.TextIOBase):
    """Standard output for a command started with it closed (``>&-``), when Python has none: each write fails as a
    write to a closed descriptor does, so that the command refuses it in one line (:func:`writing`) instead of printing
    nothing and exiting 0."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def fileno(self) -> int:
        return 1


def stand_in_for_closed_output() -> None:
    """If the command was started with standard output closed, make it a :class:`ClosedOutput`, and descriptor 1
    the null device, so that no file the command opens gets that number (and what would go to standard output
    with it)."""
    if sys.stdout is not None:
        return
    null = os.open(os.devnull, os.O_WRONLY)
    if null != 1:
        os.dup2(null, 1)
        os.close(null)
    sys.stdout = ClosedOutput()


def _let_go_of_standard_output() -> None:
    """What standard output still holds goes nowhere: Python's own flush at the exit would fail again, and say so
    in two more lines (and exit with status 120)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def _writing_standard_output(error: OSError) -> bool:
    """Whether ``error`` was raised writing to standard output: the frame that wrote (click's ``echo``, a rich
    console's buffer, a :class:`ClosedOutput`) held a stream on descriptor 1, as ``file``, ``self.file`` or
    ``self``."""
    trace = error.__traceback__
    if trace is None:
        return False
    while trace.tb_next is not None:
        trace = trace.tb_next
    names = trace.tb_frame.f_locals
    for stream in (names.get("file"), getattr(names.get("self"), "file", None), names.get("self")):
        try:
            if stream is not None and stream.fileno() == 1:
                return True
        except (AttributeError, OSError, ValueError):
            continue
    return False
