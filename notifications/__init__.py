"""Notifications to players (e-mail through django-anymail, later push)."""
