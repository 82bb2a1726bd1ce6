"""The engine's command line (`python -m engine`, a stable JSON interchange contract)
and the benchmark of legal-play generation (`python -m engine.tools.bench`)."""
