"""Tests of what only development uses: the mail backend, the embedded PostgreSQL, make."""
