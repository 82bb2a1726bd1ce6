from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The game service: players, tables, games and their history."""

    name = "bansugoroku.games"
    label = "games"
    verbose_name = "Ban-sugoroku"

    def ready(self) -> None:
        from bansugoroku.games import outbox

        outbox.add_reader("bansugoroku.games.outbox.cpu_turns")
        outbox.add_reader("bansugoroku.games.outbox.game_reviews")
