"""Every sentence the table page's script shows or announces, translated on the server
and handed to the script in the page (a JSON block), so the script holds no English.

`%(name)s`-style placeholders are filled in by the script, as gettext's own are."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.names import point_name

TABLE_TEXTS: dict[str, Promise] = {
    "cpu_easy": _("CPU (Easy)"),
    "cpu_normal": _("CPU (Normal)"),
    "cpu_hard": _("CPU (Hard)"),
    "nobody_yet": _("(free seat)"),
    "waiting": _("Waiting for a second player: send them the invitation link below."),
    "ready_host": _("Both seats are taken: start the game when you are ready."),
    "ready_guest": _("Waiting for %(name)s to start the game."),
    "your_turn": _("Your turn."),
    "their_turn": _("%(name)s's turn."),
    "choose_stone": _("Choose a stone to move."),
    "choose_point": _("Choose where the stone on %(point)s goes."),
    "you_moved": _("You moved from %(from)s to %(to)s."),
    "opening": _("Opening roll: you %(you)s, %(name)s %(them)s."),
    "they_played": _("%(name)s played %(notation)s."),
    "they_hit": _("%(name)s hit your stone: it waits on the bar."),
    "you_passed": _("You could not move with %(dice)s: your turn passed."),
    "they_passed": _("%(name)s could not move with %(dice)s: the turn passed."),
    "dice": _("Dice: %(a)s and %(b)s, %(kanji)s %(reading)s"),
    "score": _("Score: you %(you)s, %(name)s %(them)s"),
    "you_won": _("You won the game by %(how)s: %(points)s to your score."),
    "they_won": _("%(name)s won the game by %(how)s: %(points)s to their score."),
    "you_resigned": _("You resigned: %(name)s wins the game, worth 1."),
    "they_resigned": _("%(name)s resigned: you win the game, worth 1."),
    "abandoned": _("The table stood idle too long: the game ended with no winner."),
    "abandoned_left": _("A player left the table: the game ended with no winner."),
    "closed": _("This table is closed."),
    "closed_left": _("A player left this table: it is closed."),
    "play_again_hint": _("Play again to start the next game; the score carries over."),
    "iri": _("iri-gachi (入勝)"),
    "mushi": _("mushi-gachi (蒸し勝ち) ×2"),
    "mujo": _("mujō-gachi ×3"),
    "muji": _("muji-gachi (無地勝)"),
    "bear_off": _("bearing off"),
    "point": _("%(name)s: %(stones)s"),
    "empty": _("empty"),
    "mine": _("%(count)s of yours"),
    "theirs": _("%(count)s of theirs"),
    "bar": _("the bar"),
    "their_bar": _("their bar"),
    "off": _("off"),
    "their_off": _("their stones off"),
    "unreachable": _("The server can't be reached: trying again in a moment."),
    "changed": _("The table changed meanwhile: this is how it stands now."),
    "failed": _("That did not work: %(detail)s"),
    "copied": _("Link copied."),
}


_POINT_KINDS = {
    "In": _("In %(n)s"),
    "Out": _("Out %(n)s"),
    "their Out": _("their Out %(n)s"),
    "their In": _("their In %(n)s"),
}


def point_labels() -> list[str]:
    """Points 1-24 as the viewer names them ("In 3", "their Out 1"), translated: the
    engine's names, with the kind of point looked up here."""
    labels = []
    for point in range(1, 25):
        kind, number = point_name(point).rsplit(" ", 1)
        labels.append(str(_POINT_KINDS[kind]) % {"n": number})
    return labels
