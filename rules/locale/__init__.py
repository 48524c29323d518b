"""The terminal's words in the player's language: gettext catalogs, read with the standard library.

The catalogs live beside this module, ``LANG/LC_MESSAGES/trumps.po`` (the translators'
text) and ``trumps.mo`` (compiled, read at run time by :mod:`gettext`); ``trumps.pot`` is
the template extracted from the code. Babel extracts and compiles them (a development
tool only; see ``rules/locale/README.md``). The language is set once, before anything is
said, by :func:`use_language`; English needs no catalog.

>>> use_language("ru"); _("Pile")
'Стопка'
>>> ngettext("{count} card", "{count} cards", 5).format(count=5)
'5 карт'
>>> use_language("en"); _("Pile")
'Pile'

A refusal raised below the command line (a bot specification, a server setting) carries its
sentence as a :class:`Message`: English wherever it is printed as text (logs, ``--json``,
tests), in the language spoken where the command line says it with :func:`said`.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

LANGUAGES = ("en", "ro", "fi", "cs", "ky", "ru")
"""The languages the terminal speaks, as codes for ``--lang``."""

DOMAIN = "trumps"
LOCALE_DIR = Path(__file__).parent

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def use_language(lang: str) -> None:
    """Speak ``lang`` (one of :data:`LANGUAGES`) from now on."""
    global _translation, _language
    if lang not in LANGUAGES:
        raise ValueError(f"no such language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _language = lang
    _translation = (
        gettext.NullTranslations() if lang == "en" else gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    )


def language() -> str:
    """The language spoken now."""
    return _language


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language the usual variables ask for, as gettext reads them: ``LANGUAGE`` (a list such
    as ``cs:en``), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English if none asks for one of ours.

    >>> language_from_environment({"LANG": "cs_CZ.UTF-8"}), language_from_environment({"LANGUAGE": "de:ro"})
    ('cs', 'ro')
    >>> language_from_environment({"LC_ALL": "C.UTF-8", "LANG": "ru_RU.UTF-8"}), language_from_environment({})
    ('en', 'en')
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":") if variable == "LANGUAGE" else [value]:
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":
            return "en"  # the first of these that is set decides, as for gettext ("C" is English)
    return "en"


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message about ``count`` things that the language uses for that number."""
    return _translation.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in a ``context`` that tells translators what it is for (such as the words typed for a suit)."""
    return _translation.pgettext(context, message)


def N_(message: str) -> str:
    """``message`` unchanged, marked for translation (gettext's ``N_``): a text defined before the language is known
    (such as a command's ``--help``), translated with :func:`_` when it is shown."""
    return message


_NUMBERS = {
    # CLDR's symbols for each language: digit group, decimal mark, minus, what goes between a number and %
    "en": (",", ".", "-", ""),
    "ro": (".", ",", "-", "\u00a0"),
    "fi": ("\u00a0", ",", "\u2212", "\u00a0"),
    "cs": ("\u00a0", ",", "-", "\u00a0"),
    "ky": ("\u00a0", ",", "-", ""),
    "ru": ("\u00a0", ",", "-", "\u00a0"),
}


def number(value: float, decimals: int | None = 0, *, sign: bool = False) -> str:
    """``value`` written as the language spoken writes numbers (CLDR's digit groups, decimal mark and minus),
    with ``decimals`` decimals (``None``: as many as it has, as ``str`` would), and a ``+`` before a positive
    number with ``sign``. ``--json`` answers keep plain numbers.

    >>> use_language("cs"); number(25286), number(0.5, 2), number(-12, sign=True)
    ('25\xa0286', '0,50', '-12')
    >>> use_language("fi"); number(-1234.5, 1), number(7, sign=True)
    ('−1\xa0234,5', '+7')
    >>> use_language("en"); number(25286), number(1234.5, 1), number(3.9, None)
    ('25,286', '1,234.5', '3.9')
    """
    group, decimal, minus, _percent = _NUMBERS.get(_language, _NUMBERS["en"])  # a pseudo-locale writes as English
    written = format(value, ("+" if sign else "") + ("," + ("g" if decimals is None else f".{decimals}f")))
    return written.translate({ord(","): group, ord("."): decimal, ord("-"): minus})


def percent(share: float, decimals: int = 0) -> str:
    """``share`` (0.58 for 58 %) as a percentage written the way the language spoken writes one.

    >>> use_language("ru"); percent(0.583, 1)
    '58,3\xa0%'
    >>> use_language("en"); percent(0.583, 1)
    '58.3%'
    """
    return number(share * 100, decimals) + _NUMBERS.get(_language, _NUMBERS["en"])[3] + "%"


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` for a while, then as before (the documentation's pages in each language)."""
    global _translation, _language
    saved = _translation, _language
    use_language(lang)
    try:
        yield
    finally:
        _translation, _language = saved


def english() -> AbstractContextManager[None]:
    """Speak English for a while (an answer that stays English, such as a ``--json`` field, made by code that
    otherwise speaks the language of the command line)."""
    return speaking("en")


class Message:
    """A sentence kept as its English message (marked :func:`N_` where it is written) and its fields.

    ``str()`` is the English sentence; :meth:`said` the sentence in the language spoken. A field
    that is itself a :class:`Message` is said in the same language. Given as the argument of an
    exception, it makes the exception's ``str()`` English and :func:`said` of it translated.

    >>> message = Message(N_("bot {spec!r} is listed twice"), spec="greedy")
    >>> str(ValueError(message))
    "bot 'greedy' is listed twice"
    >>> use_language("cs"); said(ValueError(message))
    "bot 'greedy' je v seznamu dvakrát"
    >>> use_language("en")
    """

    def __init__(self, message: str, **fields: object) -> None:
        self.message = message
        self.fields = fields

    def __str__(self) -> str:
        return self.message.format(
            **{name: str(value) if isinstance(value, Message) else value for name, value in self.fields.items()}
        )

    def __repr__(self) -> str:
        return f"Message({self.message!r}, **{self.fields!r})"

    def said(self) -> str:
        """The sentence in the language spoken."""
        fields = {name: value.said() if isinstance(value, Message) else value for name, value in self.fields.items()}
        return _(self.message).format(**fields)


def said(what: object) -> str:
    """``what`` in the language spoken: a :class:`Message`, or an exception raised with one, is translated;
    anything else (a sentence of another program, an exception without a message) is its ``str()``."""
    if isinstance(what, BaseException) and len(what.args) == 1 and isinstance(what.args[0], Message):
        what = what.args[0]
    return what.said() if isinstance(what, Message) else str(what)
