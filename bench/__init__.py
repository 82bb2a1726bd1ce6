"""Benchmarks of the running service (the engine's own is `engine.tools.bench`)."""
