"""The mailbox of a Gmail address has no dots in its local part now (Gmail ignores
them), so suppressions are keyed again as in 0003: rows that name one Gmail inbox
become one, the oldest kept."""

import importlib

from django.db import migrations

by_mailbox = importlib.import_module(
    "notifications.migrations.0003_suppression_by_mailbox"
).by_mailbox


class Migration(migrations.Migration):
    dependencies = [("notifications", "0004_email_address_confirmation_mail")]

    operations = [migrations.RunPython(by_mailbox, migrations.RunPython.noop)]
