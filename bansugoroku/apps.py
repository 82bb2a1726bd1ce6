from django.apps import AppConfig


class BansugorokuConfig(AppConfig):
    """The game service: players, tables, games and their history."""

    name = "bansugoroku"
    verbose_name = "Ban-sugoroku"
