"""The notices API's answers, as TypedDicts the OpenAPI schema is generated from."""

from __future__ import annotations

from typing import Annotated, TypedDict

from bansugoroku.games.shapes import Doc, OneOf
from notifications.models import EmailMode


class EmailOut(TypedDict):
    """The player's e-mail address; notices go to it only once confirmed."""

    address: str
    confirmed: bool
    mail_failed: Annotated[
        bool,
        Doc(
            "The confirmation mail could not be sent (the mail provider was down): "
            "set the address again to resend it."
        ),
    ]


class ChannelsOut(TypedDict):
    email: bool
    push: bool


class KindsOut(TypedDict):
    """Per kind of notice, whether it comes by e-mail and by push."""

    your_turn: ChannelsOut
    game_over: ChannelsOut
    opponent_joined: ChannelsOut
    table_closing: ChannelsOut
    table_closed: ChannelsOut
    clock_low: ChannelsOut
    auto_vacation: ChannelsOut
    message: ChannelsOut


class NoticePreferences(TypedDict):
    """Which notices the player gets, how, and about which tables."""

    email: EmailOut | None
    email_mode: Annotated[
        str,
        OneOf(EmailMode),
        Doc(
            "How often turn e-mails may come, each listing every table waiting: "
            "each_turn, one each turn; spaced (the default), at most one per "
            "NOTICE_EMAIL_SPACING (3 hours); daily_digest, at most one a day."
        ),
    ]
    kinds: KindsOut
    muted_tables: Annotated[list[str], Doc("Codes of tables with no notice at all.")]
    play_by_reply: Annotated[
        bool,
        Doc(
            'Whether a "your turn" e-mail can be answered with the move (on by default; '
            "only where the site receives mail)."
        ),
    ]
    play_by_reply_cpu: Annotated[bool, Doc("The same at tables against the CPU (on by default).")]
    clock_reminders: Annotated[
        list[int],
        Doc(
            "At tables with a clock, the hours before your deadline at which a "
            "`clock_low` notice reminds you, largest first ([24, 2] by default; [] none)."
        ),
    ]


class SignInAsked(TypedDict):
    """A sign-in mail was asked for: the same answer whether or not a player confirmed
    the address, so that it tells no one who has it."""

    link_minutes: Annotated[int, Doc("How long each mailed link works, once.")]


class Unsubscribed(TypedDict):
    unsubscribed: Annotated[str, Doc("The kind of e-mail turned off, or `all`.")]
