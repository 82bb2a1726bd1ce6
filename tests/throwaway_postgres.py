"""A PostgreSQL server of a test's own, in a temporary folder, that it may stop and start.

initdb refuses to run as root; as root the server runs as the `postgres` system user
(via runuser). Without the binaries, or as root without that user, `throwaway_postgres`
skips the test.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from harness.serving import free_port


def _binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(versions[0]).parent if versions else None


class Cluster:
    def __init__(self, folder: Path, binaries: Path, as_user: list[str]) -> None:
        self.folder = folder
        self.binaries = binaries
        self.as_user = as_user
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, program: str, *args: str) -> None:
        command = [*self.as_user, str(self.binaries / program), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        if done.returncode:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")

    def init(self) -> None:
        self.run("initdb", "-D", str(self.folder / "data"), "-U", "postgres", "-A", "trust")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}"
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-o", options, "-l",
                 str(self.folder / "log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")


@contextmanager
def throwaway_postgres() -> Iterator[Cluster]:
    """A new cluster, started; stopped and deleted on the way out."""
    binaries = _binaries()
    if binaries is None or not (binaries / "initdb").exists():
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl)")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("as root, initdb needs runuser to run as the postgres user")
        as_user = ["runuser", "-u", "postgres", "--"]
    # Not under pytest's tmp_path: as root that is closed to the postgres user.
    folder = Path(tempfile.mkdtemp(prefix="throwaway-pg-"))
    try:
        if as_user:
            try:
                shutil.chown(folder, user="postgres")
            except LookupError:
                pytest.skip("as root, initdb needs a postgres system user")
        cluster = Cluster(folder, binaries, as_user)
        cluster.init()
        cluster.start()
        try:
            yield cluster
        finally:
            with contextlib.suppress(RuntimeError):  # already stopped
                cluster.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
