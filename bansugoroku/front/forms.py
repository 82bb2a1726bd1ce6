"""The pages' forms: a new table, joining one, the lobby's, asking for a sign-in link. A
browser without a player names itself on the first form that seats it, and the same
checks as the API's apply."""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

from django import forms
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from bansugoroku.games import clocks, lobby
from bansugoroku.games.models import CpuLevel
from bansugoroku.games.vocabulary import cpu_choice, cpu_level_name
from bansugoroku.players.display_names import MAX_LENGTH, refused_characters
from engine.rules import Finish, Muji, Start
from notifications.consent.mailboxes import NotAnAddress, canonical


class NameField(forms.CharField):
    """A display name, checked as the API checks one (NFC, trimmed, 1-40 characters, no
    control or format characters outside emoji)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=MAX_LENGTH, label=_("Your name"), **kwargs)

    def to_python(self, value: Any) -> str:
        return unicodedata.normalize("NFC", str(super().to_python(value))).strip()

    def validate(self, value: Any) -> None:
        super().validate(value)
        problems = refused_characters(value)
        if problems:
            raise forms.ValidationError(problems)


CODE_FIELD_LENGTH = 300
"""Room for a pasted invitation link, not only the six-character code."""


def friendly_name() -> str:
    """What the name field offers until the player types their own."""
    return gettext("Player %(number)d") % {"number": 100 + secrets.randbelow(900)}


class PlayerForm(forms.Form):
    """Names a new player when the browser has none; without a name field otherwise."""

    name = NameField()
    id_prefix = "player"
    """Two forms share the home page: each names its fields' ids apart."""

    def __init__(self, *args: Any, needs_name: bool, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)
        if needs_name:
            self.fields["name"].initial = friendly_name()
        else:
            del self.fields["name"]


OPPONENTS = [
    ("friend", _("A friend")),
    ("cpu", _("The CPU")),
    *((level, cpu_choice(level)) for level in CpuLevel),
]
"""What the home page's two buttons send ("friend", or "cpu" at the form's `level`); a
level itself names the CPU at that level, as the form took it before."""
LEVELS = [(level, cpu_level_name(level)) for level in CpuLevel]

FINISH = [
    (Finish.IRI.value, _("Iri-gachi: win when all 15 stones stand in your home")),
    (Finish.BEAR_OFF.value, _("Bearing off: win when all 15 stones are borne off")),
]
MUJI = [
    (Muji.BIGGER.value, _("A bigger win: a closed home while a stone is on the bar counts 2 or 3")),
    (
        Muji.ON_THE_SPOT.value,
        _("A win on the spot: closing your home while a stone is on the bar wins"),
    ),
    (Muji.OFF.value, _("No effect: every win counts 1")),
]
START = [
    (Start.ALTERNATE.value, _("Take turns: the host starts the first game, then it alternates")),
    (Start.ROLL.value, _("Roll for it: each rolls one die, the higher starts")),
]
CLOCKS = [
    ("", _("No clock: take your time")),
    *[
        (
            days,
            ngettext_lazy("%(days)d day a move", "%(days)d days a move", "days") % {"days": days},
        )
        for days in clocks.DAYS
    ],
]
"""A table's clock, for a table against a friend: the CPU's tables have none."""


class NewTableForm(PlayerForm):
    """A new table: against a friend or the CPU (the button pressed), the house rules
    folded under their defaults."""

    id_prefix = "new"
    opponent = forms.ChoiceField(choices=OPPONENTS, required=False)
    level = forms.ChoiceField(
        choices=LEVELS, initial=CpuLevel.NORMAL.value, required=False, label=_("Level")
    )
    finish = forms.ChoiceField(choices=FINISH, initial=Finish.IRI.value, widget=forms.RadioSelect)
    muji = forms.ChoiceField(choices=MUJI, initial=Muji.BIGGER.value, widget=forms.RadioSelect)
    start = forms.ChoiceField(
        choices=START, initial=Start.ALTERNATE.value, widget=forms.RadioSelect
    )
    clock = forms.TypedChoiceField(
        choices=CLOCKS, coerce=int, empty_value=None, required=False, label=_("Clock")
    )
    open = forms.BooleanField(
        required=False, label=_("Also list it in the lobby for anyone to take")
    )

    def clean(self) -> dict[str, Any]:
        """The opponent as "friend" or a CPU level. Sent without a button pressed (Enter
        in the name field presses the first, "friend"), the form is for a friend. Only a
        friend's table goes in the lobby: the box ticked for the CPU means nothing."""
        data = super().clean() or {}
        if "opponent" in self.errors:
            return data
        opponent = data.get("opponent") or "friend"
        if opponent == "cpu":
            opponent = data.get("level") or CpuLevel.NORMAL.value
        data["opponent"] = opponent
        data["open"] = data.get("open", False) and opponent == "friend"
        return data

    def rules_refused(self) -> bool:
        """Whether the house rules are shown unfolded: one of them was refused."""
        return any(name in self.errors for name in ("finish", "muji", "start", "clock"))


_TABLE_LINK = re.compile(r"/(?:t|tables)/([^/?#\s]+)")
"""A table's code in one of the site's links to it: the invitation (`/t/CODE`) or the
table page (`/tables/CODE`, and its games under it)."""


def table_code(typed: str) -> str:
    """The code in what a player typed or pasted: the code itself, in any case, with the
    dashes and spaces a code read aloud or copied from a message picks up, or a link to
    the table. What is not a code stays as it is, to be refused as one."""
    link = _TABLE_LINK.search(typed)
    code = link.group(1) if link else typed
    return re.sub(r"[\s\u2010-\u2015\u2212-]", "", code).upper()


class SeatForm(PlayerForm):
    """Taking a seat; the page's script (entropy.js) fills `entropy` with the browser's
    randomness for the next game's dice (none without script: the server's seed alone
    then)."""

    entropy = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class JoinForm(SeatForm):
    """Joining a table by its code."""

    id_prefix = "join"
    code = forms.CharField(max_length=CODE_FIELD_LENGTH, label=_("Table code"))

    def clean_code(self) -> str:
        return table_code(self.cleaned_data["code"])


ANY_RULE = ("", _("Any"))
LOBBY_CLOCKS = [
    (lobby.ANY, _("Any clock")),
    (lobby.NO_CLOCK, _("No clock")),
    *((str(days), label) for days, label in CLOCKS if days),
]


class LobbyFiltersForm(forms.Form):
    """What the lobby lists, and quick pairing looks for (`games.lobby.Filters`), in the
    words of the new table's form; a rule left at "any" takes any. Every field may be
    left out, so the lobby's address alone lists every open table."""

    finish = forms.TypedChoiceField(
        choices=[ANY_RULE, *FINISH],
        coerce=Finish,
        empty_value=None,
        required=False,
        label=_("How to finish"),
    )
    muji = forms.TypedChoiceField(
        choices=[ANY_RULE, *MUJI],
        coerce=Muji,
        empty_value=None,
        required=False,
        label=_("Muji: a closed home while the opponent is on the bar"),
    )
    start = forms.TypedChoiceField(
        choices=[ANY_RULE, *START],
        coerce=Start,
        empty_value=None,
        required=False,
        label=_("Who starts"),
    )
    clock = forms.TypedChoiceField(
        choices=LOBBY_CLOCKS,
        coerce=lobby.clock_of,
        empty_value=lobby.ANY,
        required=False,
        label=_("Clock"),
    )

    def filters(self) -> lobby.Filters:
        return lobby.Filters(**{name: self.cleaned_data[name] for name in LOBBY_FILTERS})


LOBBY_FILTERS = tuple(LobbyFiltersForm.base_fields)


class LobbySeatForm(LobbyFiltersForm, SeatForm):
    """The lobby's seats: one of its tables' (the table in the address) or quick
    pairing's. It carries the filters the list was shown with, hidden: quick pairing
    looks for them, and a refused form shows the same list again."""

    id_prefix = "seat"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in LOBBY_FILTERS:
            self.fields[name].widget = forms.HiddenInput()


def local_path(value: str) -> str:
    """`value` if it is a path on this site, else "": where a page may send a browser on
    to, never another site's page (an open redirect)."""
    local = value.startswith("/") and url_has_allowed_host_and_scheme(value, allowed_hosts=None)
    return value if local and len(value) <= MAX_NEXT else ""


MAX_NEXT = 200
"""Characters of a page to go on to: a table's is 13."""


class SignInForm(forms.Form):
    """The address to mail sign-in links to, in the form a player's address is stored in
    (`notifications.consent.mailboxes.canonical`), so the worker finds it as it was set; and the
    page the links land on (`next`, a table's), dropped unless a path of this site."""

    email = forms.CharField(label=_("Your e-mail address"), max_length=254)
    next = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_next(self) -> str:
        return local_path(self.cleaned_data["next"])

    def clean_email(self) -> str:
        try:
            return canonical(self.cleaned_data["email"].strip())
        except NotAnAddress as error:
            raise forms.ValidationError(str(error)) from None


class TableOpenForm(forms.Form):
    """The table page's lobby button: the host's waiting table in the lobby ("true") or
    out of it ("false"), at the version the page showed."""

    version = forms.IntegerField(min_value=0)
    open = forms.TypedChoiceField(
        choices=[("true", "true"), ("false", "false")], coerce=lambda value: value == "true"
    )
