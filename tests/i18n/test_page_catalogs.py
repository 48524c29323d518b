"""The browser client's message catalogs (rules/server/static/i18n/*.json) against the English one.

Every language has exactly English's keys; each message has English's placeholders; a
message with plural forms has exactly the plural categories CLDR gives its language (the
same rules Intl.PluralRules applies in the browser), no fewer and no more.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from rules.server.protocol import ErrorCode

CATALOGS = Path(__file__).resolve().parents[2] / "rules" / "server" / "static" / "i18n"
LANGUAGES = ["en", "ro", "fi", "cs", "ky", "ru"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")

Message = str | dict[str, str]

# Messages that are rightly the same as English in a language (the word is the same).
SAME_AS_ENGLISH = {"cs": {"lobby.duel", "form.duel"}, "ro": {"lobby.duel", "form.duel", "level.perfect"}}


def catalog(lang: str) -> dict[str, Message]:
    loaded: dict[str, Message] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


def plural_categories(lang: str) -> set[str]:
    """CLDR's plural categories of ``lang``: those Intl.PluralRules can pick, ``other`` included."""
    return set(Locale.parse(lang).plural_form.tags) | {"other"}


def forms(message: Message) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def placeholders(message: Message) -> set[str]:
    return {name for form in forms(message) for name in PLACEHOLDER.findall(form)}


def test_the_shipped_catalogs_are_the_six_languages() -> None:
    assert sorted(path.stem for path in CATALOGS.glob("*.json")) == sorted(LANGUAGES)


def test_the_page_lists_the_same_languages() -> None:
    script = (CATALOGS.parent / "js" / "i18n.js").read_text(encoding="utf-8")
    listed = re.search(r"export const LANGUAGES = \{(.*?)\};", script, re.S)
    assert listed is not None
    assert re.findall(r"^\s*(\w+):", listed[1], re.M) == LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_a_catalog_has_exactly_the_english_keys(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang}.json lacks these keys"
    assert sorted(set(other) - set(english)) == [], f"{lang}.json has keys English does not"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_each_message_has_the_english_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    wrong = {
        key: (sorted(placeholders(message)), sorted(placeholders(english[key])))
        for key, message in other.items()
        if key in english and placeholders(message) != placeholders(english[key])
    }
    assert wrong == {}, f"{lang}.json: placeholders (found, English's)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_have_the_categories_of_their_language(lang: str) -> None:
    english, messages = catalog("en"), catalog(lang)
    needed = plural_categories(lang)
    for key, message in messages.items():
        assert isinstance(message, dict) == isinstance(english[key], dict), f"{lang}.json {key}: plural in one only"
        if isinstance(message, dict):
            assert set(message) == needed, f"{lang}.json {key}: categories {sorted(message)}, CLDR: {sorted(needed)}"
            assert "count" in placeholders(message), f"{lang}.json {key}: a plural message says its {{count}}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_is_empty_or_left_in_english(lang: str) -> None:
    english, messages = catalog("en"), catalog(lang)
    for key, message in messages.items():
        for form in forms(message):
            assert form.strip(), f"{lang}.json {key}: empty"
    if lang != "en":
        # Short messages (a card mark, "{n} s") may be the same in any language.
        same = [
            key
            for key, message in messages.items()
            if message == english[key]
            and len(PLACEHOLDER.sub("", str(message))) > 3
            and key not in SAME_AS_ENGLISH.get(lang, set())
        ]
        assert same == [], f"{lang}.json: still English"


def test_the_catalogs_are_valid_json_with_unique_keys() -> None:
    for lang in LANGUAGES:
        text = (CATALOGS / f"{lang}.json").read_text(encoding="utf-8")

        def unique(pairs: list[tuple[str, object]], lang: str = lang) -> dict[str, object]:
            keys = [key for key, _ in pairs]
            assert len(keys) == len(set(keys)), f"{lang}.json repeats a key"
            return dict(pairs)

        json.loads(text, object_pairs_hook=unique)


STATIC = CATALOGS.parent
# A message named in the page's code: t("key"), about("key", ...), data-i18n="key", "attr:key".
NAMED = re.compile(
    r"""(?:\bt|\babout)\(\s*["']([\w.-]+)["']|data-i18n="([\w.-]+)"|data-i18n-attr="\w[\w-]*:([\w.-]+)"""
)


def test_every_message_the_page_names_is_in_the_catalogs() -> None:
    """A key written in the code but missing from the catalogs would show as the bare key."""
    english = catalog("en")
    sources = [*STATIC.glob("js/*.js"), *STATIC.glob("*.html")]
    code = [
        line
        for path in sources
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith(("//", "*", "/*"))  # the comments' examples are not the page's
    ]
    named = {key for line in code for match in NAMED.findall(line) for key in match if key}
    assert len(named) > 100  # the pattern finds them
    assert sorted(named - english.keys()) == []


# The other "you" of each language (docs/translations.md: Romanian tu, Finnish sinä, Czech ty, Kyrgyz сиз,
# Russian вы): a sentence in it speaks to the player as nowhere else in the game.
OTHER_YOU = {
    "ro": re.compile(r"\b(dumneavoastră|sunteți|aveți)\b", re.IGNORECASE),
    "fi": re.compile(r"\b(te|teidän|teille|teitä)\b", re.IGNORECASE),
    "cs": re.compile(r"\b(jste|vás|vám|váš|vaše|vaši)\b|\w(ete|áte|íte)\b", re.IGNORECASE),
    "ky": re.compile(r"\b(сен|сени|сага|сенин|сенде|ойно)\b", re.IGNORECASE),  # ойно: "play!" said to сен
    "ru": re.compile(r"\b(ты|тебя|тебе|твой|твоя|твоё|твои|твоего|твою)\b", re.IGNORECASE),
}


def forms_of(string: str | tuple[str, ...]) -> list[str]:
    return [string] if isinstance(string, str) else list(string)


@pytest.mark.parametrize("lang", sorted(OTHER_YOU))
def test_the_player_is_addressed_one_way_in_the_page_and_the_terminal(lang: str) -> None:
    with open(CATALOGS.parents[2] / "locale" / lang / "LC_MESSAGES" / "trumps.po", "rb") as file:
        terminal = [text for message in read_po(file) for text in forms_of(message.string)]
    page = [form for message in catalog(lang).values() for form in forms(message)]
    texts = terminal + page
    other = [text for text in texts if OTHER_YOU[lang].search(text)]
    assert other == [], f"{lang}: these speak to the player otherwise than the rest of the game"


# Past tenses that say whether the subject is a man, a woman or a thing (Czech, Russian). On the page a
# {who} or {seat} is a person's name, "Počítač"/"Компьютер", or "Místo 2"/"Место 2" (neuter): its
# sentences say it in the present tense or after a colon, as the rest of the catalog does.
GENDERED_PAST = {
    "cs": re.compile(
        r"\b(přebil|přihodil|vynesl|prohrál|vyhrál|vzal|dohrál|vybral|nabídl|odmítl|vzdal|zahrál)[aoiy]?\b",
        re.IGNORECASE,
    ),
    "ru": re.compile(
        r"\b(проиграл|выиграл|побил|подложил|взял|вышел|выбрал|предложил|отказал|сдал|походил|сыграл)(а|о|и|ся|ась|ось)?\b",
        re.IGNORECASE,
    ),
}


@pytest.mark.parametrize("lang", sorted(GENDERED_PAST))
def test_sentences_about_another_seat_have_no_gendered_past(lang: str) -> None:
    gendered = [
        form
        for key, message in catalog(lang).items()
        if not key.endswith(".you")
        for form in forms(message)
        if {"who", "seat"} & set(PLACEHOLDER.findall(form)) and GENDERED_PAST[lang].search(form)
    ]
    assert gendered == [], f"{lang}: the seat may be a woman's name or 'seat 2'"


# Words docs/translations.md turned down for another: a log is "жазуу" in Kyrgyz, a hand of a match "partie" in Czech.
TURNED_DOWN = {
    "ky": re.compile(r"журнал", re.IGNORECASE),
    "cs": re.compile(r"\b(tato|této|tuto) (hra|hry|hru)\b", re.IGNORECASE),
}


@pytest.mark.parametrize("lang", sorted(TURNED_DOWN))
def test_the_page_uses_the_words_chosen_for_a_log_and_a_hand(lang: str) -> None:
    found = [form for message in catalog(lang).values() for form in forms(message) if TURNED_DOWN[lang].search(form)]
    assert found == [], f"{lang}: docs/translations.md chose another word"


def test_the_page_without_javascript_says_so_in_every_language() -> None:
    # The catalogs need JavaScript, so the one sentence shown without it is in the page itself.
    page = (CATALOGS.parent / "index.html").read_text(encoding="utf-8")
    noscript = page[page.index("<noscript>") : page.index("</noscript>")]
    said = re.findall(r'<p class="noscript" lang="(\w+)">([^<]+)</p>', noscript)
    assert [lang for lang, _ in said] == LANGUAGES
    assert len({sentence for _, sentence in said}) == len(LANGUAGES)  # none left in English


# Forms that say whether a person is a man or a woman (Czech, Romanian, Russian): past participles and
# verbs, adjectives, and ordinals agreeing with the person. A seat may be a woman, a man or "Místo 2" /
# "Место 2" / "Locul 2", and "you" either: what is said about a seat or about you has none of them
# (docs/translations.md). Russian's "вы" takes the plural (вы проиграли, вы готовы), which is neutral.
GENDERED = {
    "cs": re.compile(
        r"\b\w+l[aoiy]? (jsi|ses|sis)\b|\b(jsi|ses|sis) \w+l[aoiy]?\b"
        r"|\b(přebil|přihodil|vynesl|prohrál|vyhrál|vzal|dohrál|vybral|nabídl|odmítl|vzdal|zahrál|myslel|viděl|ukončil)[aoiy]?\b"
        r"|\b(druh|čtvrt)[ýáé]\b|\b(připraven|připojen)[aýáé]?\b",
        re.IGNORECASE,
    ),
    "ru": re.compile(
        r"\b(проиграл|выиграл|побил|подложил|взял|вышел|вышла|выбрал|предложил|отказал|сдал|походил|сыграл)(а|о|ся|ась|ось)?\b"
        r"|\b(первым|вторым|третьим|четв[её]ртым|первой|третьей|четв[её]ртой)\b|\b(готов|подключ[её]н)[ао]?\b",
        re.IGNORECASE,
    ),
    "ro": re.compile(
        # a participle after "a", "ai" (a plecat, ai plecat) is the perfect tense, the same for everybody
        r"\b(primul|al doilea|al treilea|al patrulea)\b|(?<!\ba )(?<!\bai )\b(plecat|conectat|obligat|pregătit"
        r"|întrebat|sigur)ă?\b",
        re.IGNORECASE,
    ),
}
ABOUT_YOU = re.compile(r"\byou(r|rs)?\b", re.IGNORECASE)
# Words about a seat with no {who} in them: its status in its box, on the analysis board, in the lobby.
ABOUT_A_SEAT = {"status.ready", "status.out", "status.lost", "seat.away", "seat.away_title", "seat.holds_title"}
ABOUT_A_SEAT |= {"replay.out", "lobby.away"} | {f"place.{n}" for n in range(1, 5)}


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_what_the_page_says_of_a_seat_or_of_you_has_no_gender(lang: str) -> None:
    english = catalog("en")
    gendered = {
        key: form
        for key, message in catalog(lang).items()
        if key in ABOUT_A_SEAT
        or key.endswith(".you")
        or ABOUT_YOU.search(str(english[key]))
        or {"who", "seat", "place"} & placeholders(english[key])
        for form in forms(message)
        if GENDERED[lang].search(form)
    }
    assert gendered == {}, f"{lang}: a seat may be a woman, a man or 'seat 2', and so may you"


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_what_the_terminal_says_of_you_has_no_gender(lang: str) -> None:
    # The terminal's other seats are compass points (masculine nouns in Czech and Russian), which a
    # sentence may agree with; you and the order of going out (1st, 2nd: said of you too) may not.
    with open(CATALOGS.parents[2] / "locale" / lang / "LC_MESSAGES" / "trumps.po", "rb") as file:
        messages = [message for message in read_po(file) if message.id]
    gendered = {
        forms_of(message.id)[0]: text
        for message in messages
        # (the help's long texts state the rules of "whoever goes out first", not a sentence about you)
        if (ABOUT_YOU.search(forms_of(message.id)[0]) and len(forms_of(message.id)[0]) < 200)
        or forms_of(message.id)[0] in {"1st", "2nd", "3rd", "4th"}
        for text in forms_of(message.string)
        if GENDERED[lang].search(text)
    }
    assert gendered == {}, f"{lang}: you may be a woman or a man"


def test_every_error_the_server_can_send_has_the_page_s_words() -> None:
    """The page says an error by its code (js/words.js errorText); a code with no message reads "Something went
    wrong. Try again.", which tells the player nothing of what was wrong (too_many_connections, match_not_over did)."""
    english = catalog("en")
    assert sorted(f"error.{code}" for code in get_args(ErrorCode) if f"error.{code}" not in english) == []


def test_every_refusal_of_a_move_has_the_page_s_words() -> None:
    """The refusal codes docs/protocol.md lists for a move, a resignation, a draw and a trump each have a sentence
    (wrong_move one per phase): else the page falls back to "That move is not allowed now." (take_count did)."""
    protocol = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    listed = re.search(
        r"^- `code`: a stable name of the rule that refused the move\.(.*?)^- `clause`", protocol, re.M | re.S
    )
    assert listed is not None
    codes = set(re.findall(r"`(\w+)`", listed[1]))
    assert {"take_count", "lower_card", "draw_out", "trump_taken"} <= codes  # the pattern finds them
    english = catalog("en")
    wanted = {f"refusal.{code}" for code in codes - {"wrong_move"}} | {
        f"refusal.wrong_move.{phase}" for phase in ("lead", "respond", "second")
    }
    assert sorted(wanted - english.keys()) == []


def test_kyrgyz_names_a_seat_by_its_label_on_the_page() -> None:
    """A seat's number is a label (docs/translations.md): the page writes *орун 0* as the terminal does, not *0-орун*
    nor *0 номерлүү орун* (the seat numbered 0), which the Join button and its toast said."""
    english, kyrgyz = catalog("en"), catalog("ky")
    about_a_seat = [key for key, message in english.items() if "seat {n}" in str(message).lower()]
    assert len(about_a_seat) == 6
    for key in about_a_seat:
        said = str(kyrgyz[key]).lower()
        assert "орун {n}" in said and "{n}-" not in said and "{n} номерлүү" not in said, (key, said)
