"""Tests of notifications/replies/."""
