"""Adapters to the framework, each a fast path or a fix the stock code lacks: the
Celery broker channel the process keeps and the courier that sends tasks on it,
Celery's settings read from a dict, gunicorn's tornado worker that reads a request
whole before the application runs it, the PostgreSQL backend whose health check asks
the socket first, and the Content-Security-Policy middleware's early exit for the API.
Each costs care at every upgrade of what it adapts; `docs/architecture.md` says what
each gives."""
