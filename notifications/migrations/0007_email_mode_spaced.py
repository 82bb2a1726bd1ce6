"""A third pace for "your turn" e-mails: "each_turn" now means one each turn, and what
it meant before, at most one every NOTICE_EMAIL_SPACING, is "spaced", the default. The
players who had "each_turn" get "spaced": what they got before."""

from typing import Any

from django.db import migrations, models


def spaced_as_before(apps: Any, schema_editor: Any) -> None:
    preferences = apps.get_model("notifications", "Preferences")
    preferences.objects.filter(email_mode="each_turn").update(email_mode="spaced")


def each_turn_as_before(apps: Any, schema_editor: Any) -> None:
    preferences = apps.get_model("notifications", "Preferences")
    preferences.objects.filter(email_mode="spaced").update(email_mode="each_turn")


class Migration(migrations.Migration):
    dependencies = [("notifications", "0006_sign_in_link")]

    operations = [
        migrations.AlterField(
            model_name="preferences",
            name="email_mode",
            field=models.CharField(
                choices=[
                    ("each_turn", "Each Turn"),
                    ("spaced", "Spaced"),
                    ("daily_digest", "Daily Digest"),
                ],
                default="spaced",
                max_length=16,
            ),
        ),
        migrations.RunPython(spaced_as_before, each_turn_as_before),
    ]
