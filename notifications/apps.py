from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    label = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"
