"""What both the tests and the benchmarks start and talk to: gunicorn on a free loopback
port, Celery workers in processes of their own, a Postmark stand-in on loopback.

The tests import nothing from `bench` and the benchmarks nothing from `tests`; what
both need lives here, once.
"""
