"""Tests of notifications/channels/."""
