"""A seat's number is a label, not an ordinal (docs/translations.md): Kyrgyz writes *орун 0*, as the table page and
the analysis board do, never *0-орун* (the zeroth seat), in the terminal game's greeting as in ``trumps replay``'s
and ``trumps solve``'s sentences."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from rules.cli.terminal import fill
from rules.locale import _, use_language

KYRGYZ = Path(__file__).resolve().parents[2] / "rules" / "locale" / "ky" / "LC_MESSAGES" / "trumps.po"


def test_kyrgyz_names_a_seat_by_its_label() -> None:
    with KYRGYZ.open("rb") as file:
        catalog = read_po(file)
    english = {message.id: message.id[0] if isinstance(message.id, tuple) else message.id for message in catalog}
    about_a_seat = [message for message in catalog if message.id and "seat {seat}" in english[message.id]]
    about_a_seat = [message for message in about_a_seat if not english[message.id].startswith("--seat")]
    assert len(about_a_seat) == 14
    for message in about_a_seat:
        for said in message.string if isinstance(message.string, tuple) else (message.string,):
            assert "{seat}-" not in said and "орун {seat}" in said.lower(), (message.id, said)


def test_the_kyrgyz_greeting_says_where_you_sit_in_the_logs() -> None:
    use_language("ky")
    try:
        greeting = _(
            "{game} — you sit in the South (seat {seat} in the logs) against {opponents}, level {level}, {length}."
        )
        line = fill(greeting, game="Өз көзүрүң", seat=0, opponents="Түндүк", level="жеңил", length="бир партия").plain
    finally:
        use_language("en")
    assert "(жазууларда орун 0)" in line
