"""Notices delivered per minute: `python -m bench.notices` (CELERY_BROKER_URL must name
Redis or RabbitMQ; DATABASE_URL, else the embedded PostgreSQL).

A backlog of "opponent joined" notices (one per table, each to its own confirmed
address) is queued on the broker, then worker processes (`--workers`, each with
`--threads`) send them through anymail's Postmark backend to a loopback server playing
Postmark. The rate is taken between the first and the last mail to arrive, so the
workers' start-up is left out. Beside it, the reference of the same run: the same number
of threads sending the same number of mails straight through anymail to the same
server, with no broker, database or rendering: what the pipeline costs is the gap
between the two.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def per_minute(arrivals: list[float]) -> float:
    arrivals = sorted(arrivals)
    return 60 * (len(arrivals) - 1) / (arrivals[-1] - arrivals[0])


def reference(url: str, count: int, threads: int) -> float:
    """Mails per minute straight through anymail, from as many threads as the workers."""
    from django.core.mail import EmailMultiAlternatives, get_connection

    def send(n: int) -> float:
        connection = get_connection(
            "anymail.backends.postmark.EmailBackend",
            server_token="bench",
            api_url=url,
        )
        message = EmailMultiAlternatives(
            "Your turn at ABC234", "x" * 600, to=[f"ref{n}@example.com"], connection=connection
        )
        message.attach_alternative("<p>" + "x" * 1200 + "</p>", "text/html")
        message.send()
        return time.monotonic()

    with ThreadPoolExecutor(threads) as pool:
        return per_minute(list(pool.map(send, range(count))))


def backlog(count: int) -> None:
    """`count` notices, their sending queued on the broker, no worker running yet."""
    from django.utils import timezone

    from bansugoroku.celery import app
    from bansugoroku.games import services
    from bansugoroku.games.tasks import deliver_events
    from engine.rules import Rules
    from notifications.models import EmailAddress

    tables = []
    for n in range(count):
        host, _ = services.player_create(name=f"Bench host {n}")
        EmailAddress.objects.create(
            player=host, address=f"bench{n}@example.com", confirmed_at=timezone.now()
        )
        guest, _ = services.player_create(name=f"Bench guest {n}")
        table = services.table_create(host=host, rules=Rules()).table
        tables.append(services.table_join(player=guest, code=table.code).table)
    app.control.purge()  # the deliveries queued by the joins: made here instead
    for table in tables:
        deliver_events(table.pk, 1, table.last_event)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.notices", description=__doc__)
    parser.add_argument("--notices", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    args = parser.parse_args(argv)
    if not os.environ.get("CELERY_BROKER_URL", "").startswith(("redis://", "amqp://")):
        sys.exit("set CELERY_BROKER_URL to Redis or RabbitMQ, e.g. redis://127.0.0.1:6379/15")
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bansugoroku.settings")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        check=True,
    )
    import django

    django.setup()
    from harness.postmark import fake_postmark
    from harness.workers import worker_processes

    threads = args.workers * args.threads
    with fake_postmark() as server:
        floor = reference(server.url, args.notices, threads)
        server.received.clear()
        backlog(args.notices)
        with worker_processes(server, count=args.workers, threads=args.threads):
            mails = server.wait_for(args.notices, timeout=600)
        rate = per_minute([mail.at for mail in mails])
    print(f"{args.notices} notices, {args.workers} workers x {args.threads} threads")
    print(f"  through the broker and workers: {rate:,.0f} notices/min")
    print(f"  reference, anymail alone:       {floor:,.0f} mails/min ({rate / floor:.0%})")


if __name__ == "__main__":
    main()
