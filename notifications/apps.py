from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    label = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from bansugoroku.games import outbox, purges
        from notifications import webhooks  # noqa: F401 - connects the tracking receiver

        outbox.add_reader("notifications.tasks.outbox_notices")
        purges.add_purge("sign-in links", "notifications.retention.purge")
