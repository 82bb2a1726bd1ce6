"""Tests of notifications/consent/."""
