"""`make run`: migrate, then Django's development server on HOST:PORT.

    python -m bansugoroku.devserver [HOST [PORT]]     (127.0.0.1 8000)

HOST=0.0.0.0 listens on every interface, so that a phone on the same network can
reach the server. Unless ALLOWED_HOSTS is set, it then allows this machine's own
addresses and name besides localhost: never '*', with which any web page open in the
developer's browser could reach the server through a name of its own (DNS rebinding).
Invitation links follow the address a client used (SITE_URL unset in development).

Ctrl-C stops the server; the embedded PostgreSQL, if one is used, stops with the last
process using it (bansugoroku/embedded_db.py).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
LOCAL = ["localhost", "127.0.0.1", "[::1]"]
EVERY_INTERFACE = ("0.0.0.0", "::")


def own_names() -> list[str]:
    """This machine's IPv4 addresses other than loopback, and its name (as is and with
    .local, as mDNS resolves it on the local network)."""
    import psutil

    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if (
                address.family == socket.AF_INET
                and not ipaddress.ip_address(address.address).is_loopback
            ):
                found.append(address.address)
    name = socket.gethostname()
    if name and name != "localhost":
        found += [name] if "." in name else [name, f"{name}.local"]
    return list(dict.fromkeys(found))


def allowed_hosts(host: str) -> list[str]:
    if host in EVERY_INTERFACE:
        return [*LOCAL, *own_names()]
    bracketed = f"[{host}]" if ":" in host else host
    return list(dict.fromkeys([*LOCAL, bracketed]))


def main(argv: list[str]) -> int:
    host = argv[0] if argv else "127.0.0.1"
    port = argv[1] if len(argv) > 1 else "8000"
    env = dict(os.environ)
    hosts = env.get("ALLOWED_HOSTS", "").strip()
    if not hosts:
        hosts = env["ALLOWED_HOSTS"] = ",".join(allowed_hosts(host))
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    try:
        migrated = subprocess.run([*manage, "migrate", "--noinput"], env=env, check=False)
    except KeyboardInterrupt:  # Ctrl-C while migrating
        return 130
    if migrated.returncode != 0:
        return migrated.returncode
    if host in EVERY_INTERFACE:
        urls = [f"http://{name}:{port}/" for name in hosts.split(",") if name not in LOCAL]
        print("From another device on this network:", *urls, sep="\n  ", flush=True)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    # The server takes this process's place, so that Ctrl-C reaches it as before.
    os.execve(sys.executable, [*manage, "runserver", address], env)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
