"""Shared pytest fixtures. pytest-django provides `client`, `db`, `settings`, ..."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Rate-limit counters live in the cache; each test starts with none spent."""
    cache.clear()
    yield
    cache.clear()
