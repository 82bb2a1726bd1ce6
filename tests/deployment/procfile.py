"""The Procfile's processes, started as a platform starts them: each entry's command
run by the shell in the project's folder, with the deployment's environment and `$PORT`.

The commands are read from the Procfile itself, so a test of them tests what deploys.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def procfile(path: Path = ROOT / "Procfile") -> dict[str, str]:
    """Each process type's command, in the file's order."""
    entries: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            entries[name.strip()] = command.strip()
    return entries


class Deployment:
    """The processes of one deployment, their output in `logs/NAME.log`."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        # The project's virtual environment first on PATH, as a platform's build puts
        # its own: `gunicorn`, `celery` and `python` are the project's.
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
        self.env = os.environ | {"PATH": path} | env
        self.logs = logs
        self.commands = procfile()
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def _popen(self, name: str, command: str) -> subprocess.Popen[bytes]:
        with open(self.logs / f"{name}.log", "ab") as log:  # the process keeps its own copy
            return subprocess.Popen(
                ["bash", "-c", command],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group, so that stop() reaches its children
            )

    def run(self, name: str, command: str | None = None, timeout: float = 120) -> None:
        """Run a one-off command (the Procfile's `name`, or `command` logged as `name`)
        to its end; fails with its output if it fails."""
        process = self._popen(name, command or self.commands[name])
        if process.wait(timeout=timeout):
            raise AssertionError(f"{name} failed:\n{self.log(name)}")

    def start(self, name: str) -> None:
        self.running[name] = self._popen(name, self.commands[name])

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop(self) -> None:
        """SIGTERM to every process group, as a platform stops them; SIGKILL after 30 s."""
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        for process in self.running.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def exited(self) -> dict[str, int]:
        """The long-running processes that stopped on their own, with their status."""
        return {
            name: code
            for name, process in self.running.items()
            if (code := process.poll()) is not None
        }


@contextmanager
def deployed(env: dict[str, str], logs: Path) -> Iterator[Deployment]:
    deployment = Deployment(env, logs)
    try:
        yield deployment
    finally:
        deployment.stop()
