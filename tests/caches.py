"""Where the rate-limit tests count in Redis."""

from __future__ import annotations

import os

REDIS_URL = os.environ.get("CACHE_URL") or "redis://127.0.0.1:6379/15"
"""The Redis the rate-limit tests count in: the suite's CACHE_URL if it has one."""
