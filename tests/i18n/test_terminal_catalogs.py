"""The command line's gettext catalogs (rules/locale: the game, the help, the messages) against the code and English.

The template holds exactly the messages of the code; every language translates exactly the
template's messages, each with the English ``{placeholders}``, with the plural forms CLDR
gives the language; every committed ``.mo`` is its ``.po`` compiled.
"""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from rules.locale import LANGUAGES, LOCALE_DIR, percent, speaking

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)(?:![rsa])?\}")  # an empty name: typer's own "[default: {}]"
ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(path.relative_to(ROOT) for path in (ROOT / "rules").rglob("*.py"))  # messages may be marked anywhere

Key = tuple[str | None, str]


def template() -> Catalog:
    with open(LOCALE_DIR / "trumps.pot", "rb") as file:
        return read_po(file)


def catalog(lang: str) -> Catalog:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "trumps.po", "rb") as file:
        return read_po(file, locale=lang)


def key(message_id: str | tuple[str, ...], context: str | None) -> Key:
    return context, message_id if isinstance(message_id, str) else message_id[0]


def keys(messages: Catalog) -> set[Key]:
    return {key(message.id, message.context) for message in messages if message.id}


def names(texts: str | tuple[str, ...] | list[str]) -> set[str]:
    forms = [texts] if isinstance(texts, str) else list(texts)
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


def test_the_template_has_exactly_the_messages_of_the_code() -> None:
    found: set[Key] = set()
    for source in SOURCES:
        for _line, message, _comments, context in extract_from_file("python", ROOT / source):
            found.add(key(message, context))
    assert found == keys(template()), "run the pybabel extract/update of rules/locale/README.md"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_translates_exactly_the_template(lang: str) -> None:
    messages = catalog(lang)
    assert not messages.fuzzy
    assert sorted(keys(template()) - keys(messages), key=str) == [], f"{lang}: not in the catalog"
    assert sorted(keys(messages) - keys(template()), key=str) == [], f"{lang}: not in the code any more"
    untranslated = [
        message.id
        for message in messages
        if message.id
        and (not message.string or any(not form for form in message.string if isinstance(message.string, tuple)))
    ]
    assert untranslated == []
    assert [message.id for message in messages if message.id and message.fuzzy] == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_english_placeholders(lang: str) -> None:
    wrong = {
        str(message.id): (sorted(names(message.string)), sorted(names(message.id)))
        for message in catalog(lang)
        if message.id and names(message.string) != names(message.id)
    }
    assert wrong == {}, f"{lang}: placeholders (translated, English)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_are_those_of_the_language(lang: str) -> None:
    messages = catalog(lang)
    rule = get_plural(lang)
    assert messages.plural_forms == rule.plural_forms
    for message in messages:
        if message.id and message.pluralizable:
            assert isinstance(message.string, tuple) and len(message.string) == rule.num_plurals, message.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_is_the_compiled_po(lang: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, catalog(lang))
    committed = (LOCALE_DIR / lang / "LC_MESSAGES" / "trumps.mo").read_bytes()
    assert committed == compiled.getvalue(), f"run: pybabel compile -d rules/locale -D trumps -l {lang}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_renders(lang: str) -> None:
    """Each message, read back through the standard library as the game reads it, fills its placeholders."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "trumps.mo", "rb") as file:
        translation = gettext.GNUTranslations(file)
    for message in template():
        if not message.id:
            continue
        values = dict.fromkeys(names(message.id), "X")
        if message.pluralizable:
            singular, plural = message.id
            for count in (1, 2, 5, 21):
                translation.ngettext(singular, plural, count).format(**values)
        elif message.context:
            assert translation.pgettext(message.context, message.id).strip()
        else:
            assert translation.gettext(message.id).format("X", **values)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_percentage_in_a_message_is_written_as_the_language_writes_one(lang: str) -> None:
    """A literal percentage in a translation (``95 %``) is spaced as :func:`rules.locale.percent` spaces a computed one
    (docs/translations.md: ``58,3 %`` in Czech, Finnish, Romanian and Russian, ``58,3%`` in Kyrgyz)."""
    with speaking(lang):
        spaced = percent(0.5) != "50%"
    for message in catalog(lang):
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for form in forms:
            for gap in re.findall(r"\d(\s?)%", form):
                assert bool(gap) == spaced, (message.id, form)
