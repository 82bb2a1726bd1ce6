"""The load benchmark still runs end to end: a short run, few clients, real gunicorn.

Its figures are not checked (tests are not timed); that every request was answered
200, that moves were accepted and that no client failed is.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from harness.serving import PROCFILE_WEB

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def database() -> str:
    """An empty database of the benchmark's own, dropped and made anew for each run: it
    migrates it and leaves its tables behind, which a later run with other models or
    migrations cannot build on. Named after the database of the settings, so checkouts
    tested at once on one server do not share it."""
    parts = urlsplit(settings.DATABASE_URL)
    name = f"{parts.path.lstrip('/')}_bench_smoke"
    maintenance = parts._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance, autocommit=True) as conn:
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
        conn.execute(drop.format(sql.Identifier(name)))
    return parts._replace(path=f"/{name}").geturl()


def bench(module: str, url: str, *options: str) -> subprocess.CompletedProcess[str]:
    """`python -m bench.<module>` on the database at `url`, as a user runs it; it must
    succeed."""
    result = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *options],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def run_bench(url: str, *options: str) -> str:
    options = ("--duration", "2", "--warmup", "1", "--clients", "4", "--processes", "1", *options)
    result = bench("api_bench", url, *options, "--gunicorn", "--workers", "2")
    answers = re.findall(r"^non-200 answers\s+(.*)$", result.stdout, re.MULTILINE)
    assert answers and set(answers) == {"none"}, result.stdout
    assert "client failures" not in result.stdout, result.stdout
    return result.stdout


def rate(output: str, label: str) -> float:
    found = re.search(rf"^{label}\s+([\d.]+)", output, re.MULTILINE)
    assert found, output
    return float(found.group(1))


@pytest.mark.parametrize("mode", [(), ("--local-rules",)], ids=["thin-clients", "local-rules"])
def test_the_move_benchmark_runs(database, mode):
    output = run_bench(database, *mode)
    assert rate(output, "accepted moves/s") > 0


def test_the_reference_benchmark_runs(database):
    output = run_bench(database, "--reference")
    assert rate(output, "reference POST/s") > 0


def test_rounds_measure_the_api_beside_the_reference(database):
    output = run_bench(database, "--rounds", "2")
    assert output.count("reference POST/s") == 2 and output.count("accepted moves/s") == 2
    shares = re.findall(r"^moves/s / reference\s+([\d.]+)%", output, re.MULTILINE)
    assert len(shares) == 2 and all(float(share) > 0 for share in shares), output
    median = re.search(r"^=== median ([\d.]+)%", output, re.MULTILINE)
    assert median and float(median.group(1)) > 0, output


def test_slow_clients_do_not_stop_the_procfile_web_server(database):
    """The Procfile's web server keeps answering while 10 clients send their headers a
    line a second (a sync worker per slow client answered nothing)."""
    command = [sys.executable, "-m", "bench.slow_clients", "--slow", "10", "--attack", "8"]
    command += ["--measure", "4", "--gunicorn", *PROCFILE_WEB[:2], "--workers", "2"]
    result = subprocess.run(
        command,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": database},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    found = re.search(r"^during attack\s+(\d+) answered, (\d+) failed", result.stdout, re.M)
    assert found, result.stdout
    assert int(found.group(1)) > 0 and int(found.group(2)) == 0, result.stdout


def test_the_idle_sweep_benchmark_runs():
    """A few hundred tables in batches of 50, in a scratch database it makes and drops."""
    parts = urlsplit(settings.DATABASE_URL)
    base = parts._replace(path=f"{parts.path}_smoke").geturl()
    result = bench("idle_sweep", base, "--sizes", "300", "--batch", "50")
    assert "closed            300 (150 with a game), open 30" in result.stdout, result.stdout
    assert re.search(r"^transactions\s+6 of up to 50 tables", result.stdout, re.M), result.stdout
    scratch = unquote(f"{parts.path.lstrip('/')}_smoke_idle_sweep")
    maintenance = parts._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance) as conn:
        left = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [scratch])
        assert left.fetchone() is None, "the scratch database was dropped"


def test_the_clock_sweep_benchmark_runs():
    """2,000 clocks, 50 run out, in batches of 20, in a scratch database it makes and drops."""
    parts = urlsplit(settings.DATABASE_URL)
    base = parts._replace(path=f"{parts.path}_smoke").geturl()
    result = bench("clock_sweep", base, "--tables", "2000", "--expired", "50", "--batch", "20")
    assert re.search(r"^ended\s+50 \(.*\), still past their deadline 0$", result.stdout, re.M)
    assert re.search(r"^reference\s+50 rows", result.stdout, re.M), result.stdout
    assert re.search(r"^batches\s+3 of up to 20 tables", result.stdout, re.M), result.stdout
    assert "Index Scan using table_deadline" in result.stdout, result.stdout
    reference = re.search(r"^remind reference\s+(\d+) rows", result.stdout, re.M)
    reminded = re.search(r"^reminded\s+(\d+) in", result.stdout, re.M)
    assert reference and reminded and reference[1] == reminded[1], result.stdout
    scratch = unquote(f"{parts.path.lstrip('/')}_smoke_clock_sweep")
    maintenance = parts._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance) as conn:
        left = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [scratch])
        assert left.fetchone() is None, "the scratch database was dropped"


def test_the_lobby_benchmark_runs():
    """2,000 players and 100 open tables, 10 requests of each kind, in a scratch database."""
    parts = urlsplit(settings.DATABASE_URL)
    base = parts._replace(path=f"{parts.path}_smoke").geturl()
    options = ("--players", "2000", "--open", "100", "--requests", "10", "--rounds", "2")
    result = bench("lobby", base, *options)
    assert re.search(r"^table state \(reference\)\s+[\d.]+\s+[\d.]+\s+1\.00x$", result.stdout, re.M)
    assert re.search(r"^quick pairing\s+[\d.]+", result.stdout, re.M), result.stdout
    assert "open tables left: 79 (quick pairing took 21)" in result.stdout, result.stdout
    assert "table_in_lobby" in result.stdout, result.stdout
