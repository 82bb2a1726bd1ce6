from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    """Built concurrently: the games table takes moves while it is."""

    atomic = False

    dependencies = [
        ("games", "0008_game_review"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="game",
            index=models.Index(fields=["ended_at"], name="game_ended_at"),
        ),
    ]
