"""Tests of notifications/mails/."""
