"""``trumps play`` in each language, through a pipe: a whole hand, and not a word of English.

The player types the language's own words: its name of hearts for the trump, its take word
(the English ``t`` and card numbers work in every language). A pseudo-locale, every letter
of every message accented, finds sentences that do not come from the catalogs at all.
"""

from __future__ import annotations

import gettext
import io
import itertools
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from rich.console import Console

import rules.locale
from rules.cli.session import play_match
from rules.locale import LANGUAGES, LOCALE_DIR, use_language
from rules.match import Match
from rules.options import RuleSet
from rules.players import make_player

PLACEHOLDER = re.compile(r"\{\w+(?:![rsa])?\}")
# Words of the game that every language writes so: the program, keys, the log command.
SAME_EVERYWHERE = {"trumps", "replay", "enter", "ctrl", "undo", "hint", "quit", "help", "jsonl"}


def template() -> Catalog:
    with open(LOCALE_DIR / "trumps.pot", "rb") as file:
        return read_po(file)


def words(text: str) -> set[str]:
    """Words of ``text`` in plain Latin letters only, three or more, lower case (a path or an address is not words)."""
    text = re.sub(r"\S*/\S*", " ", text)
    return {word.lower() for word in re.findall(r"\w+", text) if len(word) >= 3 and re.fullmatch("[A-Za-z]+", word)}


def english_words(lang: str) -> set[str]:
    """Words of the English messages that would betray an untranslated sentence in ``lang``."""
    english: list[str] = []
    for message in template():
        english.extend([message.id] if isinstance(message.id, str) else message.id)
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "trumps.po", "rb") as file:
        translated = [
            form
            for message in read_po(file)
            for form in ([message.string] if isinstance(message.string, str) else message.string)
        ]
    found = words(PLACEHOLDER.sub(" ", " ".join(english)))
    return found - words(" ".join(translated)) - SAME_EVERYWHERE


def typed(lang: str, context: str, english: str) -> str:
    """The first word the language's catalog lists for a typed thing (the trump, the take word)."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "trumps.mo", "rb") as file:
        return gettext.GNUTranslations(file).pgettext(context, english).split()[0]


def play_through_a_pipe(
    args: list[str], lines: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from rules.cli import main; main()", "play", *args]
    return subprocess.run(
        command, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120, env=env, check=False
    )


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_hand_through_a_pipe_in_each_language(lang: str) -> None:
    hearts = typed(lang, "words typed for hearts, separated by spaces", "hearts heart")
    take = typed(lang, "words typed to take, separated by spaces", "t take")
    # The trump by its name, then by turns the first card of the hand and the take word, to the end.
    lines = [hearts, *[line for _turn in range(2000) for line in ("1", take)]]
    args = ["--lang", lang, "--no-save", "--no-undo", "--level", "easy", "--seed", "3", "--hands", "1"]
    done = play_through_a_pipe(args, lines)
    assert done.returncode == 0, done.stderr
    screen = done.stdout
    use_language(lang)
    try:
        from rules.locale import _

        over = _("Hand {hand} over").format(hand=1)
        assert over in screen, "the hand was played to its end"
        assert _("You chose {suit} as trump.").format(suit="♥ " + _("hearts")) in screen, "the trump typed in words"
    finally:
        use_language("en")
    stray = words(screen) & english_words(lang)
    assert stray == set(), f"{lang}: English on the screen"


def test_the_environment_chooses_the_language() -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    done = play_through_a_pipe(["--no-save", "--level", "easy", "--seed", "5"], ["q"], env | {"LANG": "cs_CZ.UTF-8"})
    assert "Hra je ukončená." in done.stdout
    done = play_through_a_pipe(
        ["--no-save", "--level", "easy", "--seed", "5"], ["q"], env | {"LANGUAGE": "fi:cs", "LANG": "C"}
    )
    assert "Lopetit pelin." in done.stdout


def test_an_unknown_language_is_refused_with_the_list() -> None:
    done = play_through_a_pipe(["--lang", "xx", "--no-save"], ["q"])
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "--lang xx: choose one of en, ro, fi, cs, ky, ru"


_PSEUDO = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)


def pseudo(text: str) -> str:
    """``text`` accented letter by letter (placeholders kept) and about a third longer."""
    parts = re.split(r"(\{\w+(?:![rsa])?\})", text)
    body = "".join(part if part.startswith("{") else part.translate(_PSEUDO) for part in parts)
    return body + " ·" * max(1, len(text) // 6)


@pytest.fixture
def pseudo_locale(tmp_path: Path) -> Iterator[None]:
    """The game speaking a pseudo-locale built from the template (the typed words keep their English)."""
    messages = Catalog(locale="en")
    for message in template():
        if not message.id:
            continue
        if message.context and "typed" in message.context:
            messages.add(message.id, message.id, context=message.context)
        elif message.context:
            messages.add(message.id, pseudo(str(message.id)), context=message.context)
        elif isinstance(message.id, tuple):
            messages.add(message.id, tuple(pseudo(form) for form in message.id))
        else:
            messages.add(message.id, pseudo(message.id))
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    # Spoken as a language of its own: the English reasons of the engine are not shown in it either.
    rules.locale._translation = gettext.GNUTranslations(compiled)
    rules.locale._language = "en-XA"
    yield
    use_language("en")


def test_the_pseudo_locale_finds_no_hard_coded_english(pseudo_locale: None) -> None:
    """A match of two hands in-process, with undo, a hint, a typo and help: every plain Latin word on the
    screen would be a sentence written in the code instead of the catalogs."""
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)
    suits = ["spades", "hearts", "diamonds", "clubs"]
    tried = itertools.cycle(["xyzzy", "?", *suits])  # at the trump prompt: a typo, help, then each suit in turn
    lines = iter(["hearts", "h", "1", "u", *[line for _turn in range(1000) for line in ("1", "t")]])
    match = Match(RuleSet(players=3, dealer=0), 2)
    bots = {seat: make_player("easy", seat) for seat in (1, 2)}

    def read_line(prompt: str) -> str | None:
        console.print(prompt, end="")
        if prompt == pseudo("next hand> "):
            line: str | None = "n"
        elif prompt == pseudo("your trump> "):
            line = next(tried)
        else:
            line = next(lines, None)
        console.print(line if line is not None else "")
        return line

    play_match(match, 0, bots, console, read_line, seed=11, log_path=None)
    screen = output.getvalue()
    assert "Þîļé" in screen and "Ĥåñđ 2 öṽéŕ" in screen  # "Pile" and "Hand 2 over", as the pseudo-locale says them
    typed = {"xyzzy", *suits}
    stray = words(screen) - typed - SAME_EVERYWHERE
    assert stray == set(), "words written in the code, not taken from the catalogs"


# Taking, offered beside "Beat …" and "You cannot beat …", is said in the mood of the sentence's other verb
# (the imperative for tu, sinä, ty, сиз, вы), not as an infinitive: "Побейте 9♥ … — или возьмите 3 карты".
TAKE_THREE = {
    "en": "take 3 cards",
    "ro": "ia 3 cărți",
    "fi": "ota 3 korttia",
    "cs": "vezmi 3 karty",
    "ky": "3 карта алыңыз",
    "ru": "возьмите 3 карты",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_take_offered_is_said_as_the_rest_of_its_sentence(lang: str) -> None:
    use_language(lang)
    try:
        from rules.locale import _, ngettext

        take = ngettext("take {count} card", "take {count} cards", 3).format(count=3)
        offered = _("Beat {top} with {cards}, or {take}.").format(top="9♥", cards="J♥ (7)", take=take)
    finally:
        use_language("en")
    assert TAKE_THREE[lang] in offered
