"""Suppressions were kept as the address was typed, lower-cased; they are kept by
mailbox now (`notifications.consent.mailboxes.mailbox`), so that no spelling of a suppressed
address gets mail. Rows that name one mailbox become one, the oldest kept."""

from typing import Any

from django.db import migrations

from notifications.consent.mailboxes import mailbox


def by_mailbox(apps: Any, schema_editor: Any) -> None:
    Suppression = apps.get_model("notifications", "Suppression")
    kept: dict[str, Any] = {}
    for row in Suppression.objects.order_by("created_at", "pk"):
        key = mailbox(row.address)
        if key in kept:
            row.delete()
        else:
            kept[key] = row
    # Only now: the row whose address already is a kept row's key may have gone above.
    for key, row in kept.items():
        if key != row.address:
            Suppression.objects.filter(pk=row.pk).update(address=key)


class Migration(migrations.Migration):
    dependencies = [("notifications", "0002_attempt_in_flight")]

    operations = [migrations.RunPython(by_mailbox, migrations.RunPython.noop)]
