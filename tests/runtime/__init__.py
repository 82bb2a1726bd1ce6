"""Tests of the framework adapters: the courier and broker channel, the PostgreSQL
backend."""
