"""The move in a reply as mail programs write one: the first line the player wrote,
whatever the program quotes and however it signs; and the move in the player's words."""

from __future__ import annotations

import pytest
from django.utils import translation

from bansugoroku.games.vocabulary import notation_read
from notifications.replies.text import html_text, move_line

ORIGINAL = "Hello Aiko,\n\nYour move is awaited:\nTable K7P2QX, against Ben.\n"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" for line in text.splitlines())


@pytest.mark.parametrize(
    "text",
    [
        # Gmail, Apple Mail, Thunderbird: above the quote, with its attribution.
        f"13/10 10/9\n\nOn Tue, 1 Dec 2026 at 20:00, Ban-sugoroku <noreply@x> wrote:\n"
        f"{quoted(ORIGINAL)}",
        # German, French, Russian and Japanese attributions.
        f"13/10 10/9\n\nAm Di., 1. Dez. 2026 um 20:00 schrieb Ban-sugoroku:\n{quoted(ORIGINAL)}",
        f"13/10 10/9\n\nLe mar. 1 déc. 2026 à 20:00, Ban-sugoroku a écrit :\n{quoted(ORIGINAL)}",
        f"13/10 10/9\n\nвт, 1 дек. 2026 г. в 20:00, Ban-sugoroku написал:\n{quoted(ORIGINAL)}",
        f"13/10 10/9\n\n2026年12月1日(火) 20:00 Ban-sugoroku のメッセージ:\n{quoted(ORIGINAL)}",
        # Below the quote (bottom posting), signed.
        f"On Tue, Ban-sugoroku wrote:\n{quoted(ORIGINAL)}\n\n13/10 10/9\n-- \nAiko",
        # Outlook: the original unquoted under a header.
        f"13/10 10/9\r\n\r\n-----Original Message-----\r\nFrom: Ban-sugoroku\r\n{ORIGINAL}",
        f"  13/10 10/9  \n\nFrom: Ban-sugoroku <noreply@x>\nSent: Tuesday\n{ORIGINAL}",
        # Blank lines first; a signature after.
        "\n\n\n13/10 10/9\n\n-- \nSent from my phone\n13/10 10/9 is my move",
    ],
)
def test_the_move_is_the_first_line_the_player_wrote(text):
    assert move_line(text) == "13/10 10/9"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        f"On Tue, Ban-sugoroku wrote:\n{quoted(ORIGINAL)}",
        "-----Original Message-----\nFrom: x\n13/10 10/9",
        "-- \n13/10 10/9",
    ],
)
def test_a_reply_with_nothing_written_has_no_move(text):
    assert move_line(text) is None


def test_an_html_only_reply_is_read_as_the_text_it_shows():
    gmail = (
        '<div dir="ltr">8/5&nbsp;6/5<br></div><br><div class="gmail_quote">'
        '<div class="gmail_attr">On Tue, Ban wrote:<br></div>'
        '<blockquote class="gmail_quote">13/10 10/9</blockquote></div>'
    )
    apple = (
        "<html><head><style>p{}</style></head><body><div>8/5 6/5</div>"
        '<div><br><blockquote type="cite"><div>Hello Aiko,</div></blockquote></div></body></html>'
    )
    outlook = (
        '<div><p>8/5 6/5</p></div><hr><div id="divRplyFwdMsg"><b>From:</b> Ban</div>'
        "<div>Hello Aiko,</div>"
    )
    for html in (gmail, apple, outlook):
        assert move_line("", html) == "8/5 6/5", html_text(html)


def test_nested_quotes_are_left_out_whole():
    html = "<blockquote><blockquote>13/10</blockquote><p>10/9</p></blockquote><p>ok</p>"
    assert html_text(html).split() == ["ok"]


@pytest.mark.parametrize(
    ("locale", "written", "read"),
    [
        ("en", "BAR/22 6/Off", "bar/22 6/off"),
        ("de", "Bar/22 6/raus", "bar/22 6/off"),
        ("fr", "barre/22 6/sortie", "bar/22 6/off"),
        ("ru", "бар/22 6/выход", "bar/22 6/off"),
        ("ja", "バー/２２　６／上がり", "bar/22 6/off"),
        ("de", "bar/22 6/off", "bar/22 6/off"),  # the English words in any language
    ],
)
def test_a_play_is_read_in_the_players_words(locale, written, read):
    with translation.override(locale):
        assert " ".join(notation_read(written).split()) == read
