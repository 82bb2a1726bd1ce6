"""Every sentence the table page's script shows or announces, translated on the server
and handed to the script in the page (a JSON block), so the script holds no English.
The names in them (the points, the CPU, a free seat) come from `bansugoroku.games.vocabulary`.

`%(name)s`-style placeholders are filled in by the script, as gettext's own are."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from bansugoroku.games import vocabulary
from bansugoroku.games.models import CpuLevel
from bansugoroku.games.vocabulary import WIN_NAMES
from engine.position import BAR, OFF

TABLE_TEXTS: dict[str, Promise] = {
    "waiting": _("Waiting for a second player: send them the invitation link below."),
    "ready_host": _("Both seats are taken: start the game when you are ready."),
    "ready_guest": _("Waiting for %(name)s to start the game."),
    "your_turn": _("Your turn."),
    "their_turn": _("%(name)s's turn."),
    "choose_stone": _("Choose a stone to move."),
    "choose_point": _("Choose where the stone on %(point)s goes."),
    "you_moved": _("You moved from %(from)s to %(to)s."),
    "draft_done": _("Play to end your turn, or Undo to change it."),
    "opening": _("Opening roll: you %(you)s, %(name)s %(them)s."),
    "since_heading": _("Since your last play:"),
    "they_played": _("Turn %(turn)s: %(name)s played %(notation)s with %(dice)s."),
    "they_hit": _(
        "Turn %(turn)s: %(name)s played %(notation)s with %(dice)s and hit your stone: "
        "it waits on the bar."
    ),
    "you_passed": _("Turn %(turn)s: you could not move with %(dice)s: your turn passed."),
    "they_passed": _("Turn %(turn)s: %(name)s could not move with %(dice)s: the turn passed."),
    "your_roll": _("Turn %(turn)s is yours: you rolled %(dice)s."),
    "dice": _("Dice: %(a)s and %(b)s, %(kanji)s %(reading)s"),
    "score": _("Score: you %(you)s, %(name)s %(them)s"),
    "you_won": _("You won the game by %(how)s: %(points)s to your score."),
    "they_won": _("%(name)s won the game by %(how)s: %(points)s to their score."),
    "you_resigned": _("You resigned: %(name)s wins the game, worth 1."),
    "they_resigned": _("%(name)s resigned: you win the game, worth 1."),
    "you_timed_out": _("Your time to move ran out: %(name)s wins the game on time, worth 1."),
    "they_timed_out": _("%(name)s's time to move ran out: you win the game on time, worth 1."),
    "cancelled": _(
        "The time to move ran out before each side had played two turns: the game is "
        "cancelled, with no winner."
    ),
    "clock_yours": _("Your time: %(left)s left, until %(when)s. %(name)s: %(theirs)s."),
    "clock_theirs": _("%(name)s's time: %(left)s left, until %(when)s. Yours: %(mine)s."),
    "vacation_yours": _("You are on vacation until %(when)s: your clocks stand."),
    "vacation_theirs": _("%(name)s is on vacation until %(when)s: their clock stands."),
    "quiet_yours": _("Your quiet hours: your clock stands until %(when)s."),
    "quiet_theirs": _("%(name)s's quiet hours: their clock stands until %(when)s."),
    "abandoned": _("The table stood idle too long: the game ended with no winner."),
    "abandoned_left": _("A player left the table: the game ended with no winner."),
    "closed": _("This table is closed."),
    "closed_left": _("A player left this table: it is closed."),
    "play_again_hint": _("Play again to start the next game; the score carries over."),
    **{f"win_{kind}": name for kind, name in WIN_NAMES.items()},
    "point": _("%(name)s: %(stones)s"),
    "empty": _("empty"),
    "mine": _("%(count)s of yours"),
    "theirs": _("%(count)s of theirs"),
    "unreachable": _("The server can't be reached: trying again in a moment."),
    # A move, or any other action, is sent at once or not at all: never kept for later.
    "not_sent": _("Not sent: this needs a connection. Try again once you are online."),
    "stale": _("The table changed meanwhile: this is how it stands now."),
    "failed": _("That did not work: %(detail)s"),
    "copied": _("Link copied."),
    "hit_here": _("Their last play hit your stone here."),
    "waited_you": _("Waiting for you for %(time)s"),
    "waited_them": _("Waiting for %(name)s for %(time)s"),
    "closes": _("Closes %(when)s without a move"),
}


def table_texts() -> dict[str, str]:
    """The sentences and names the script uses, in the active language; `cpu_<level>`
    names the CPU at each level."""
    texts = {key: str(text) for key, text in TABLE_TEXTS.items()}
    texts |= {f"cpu_{level}": vocabulary.cpu_name(level) for level in CpuLevel}
    texts |= {
        "nobody_yet": str(vocabulary.FREE_SEAT),
        "bar": vocabulary.point_name(BAR),
        "off": vocabulary.point_name(OFF),
        "their_bar": str(vocabulary.THEIR_BAR),
        "their_off": str(vocabulary.THEIR_OFF),
        **vocabulary.notation_words(),
    }
    return texts


def point_names() -> list[str]:
    """Points 1-24 as the viewer names them, with the numbers plays are written in ("In 3
    (3)", "their Out 1 (13)"), translated: what the script reads out for each point."""
    return [vocabulary.numbered_point_name(point) for point in range(1, 25)]
