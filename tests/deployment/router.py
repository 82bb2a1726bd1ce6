"""A platform router on loopback: it terminates TLS, as Heroku's router or a load
balancer does, and hands each request to `web` over plain HTTP with
`X-Forwarded-Proto: https` and `X-Forwarded-For` added.

One request per connection (`Connection: close` both ways), so that the router only has
to read a request's head to add its headers and can copy the rest as it comes; the
browser opens a new connection for each request, which costs nothing on loopback.
"""

from __future__ import annotations

import asyncio
import datetime
import queue
import ssl
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HEAD_LIMIT = 64 * 1024


def _self_signed(folder: Path) -> ssl.SSLContext:
    """A server context with a fresh certificate for `localhost` (the browser is told
    to accept it)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    return context


def with_headers(head: bytes, **headers: str) -> bytes:
    """A request's or response's head (without its blank line) with `headers` (written
    `X_Forwarded_Proto="https"`) in place of any of those names it had."""
    lines = head.split(b"\r\n")
    names = {name.replace("_", "-") for name in headers}
    ours = tuple(f"{name.lower()}:".encode() for name in names)
    kept = [line for line in lines[1:] if line and not line.lower().startswith(ours)]
    added = [f"{name.replace('_', '-')}: {value}".encode() for name, value in headers.items()]
    return b"\r\n".join([lines[0], *kept, *added]) + b"\r\n\r\n"


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, **headers: str) -> None:
    """Copy what `reader` sends to `writer`, its head changed to carry `headers`, until
    it closes; then close `writer`."""
    try:
        writer.write(with_headers((await reader.readuntil(b"\r\n\r\n"))[:-4], **headers))
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def _route(
    upstream_port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    try:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
    except OSError:  # web is gone (the test is ending): as a router says it
        writer.write(b"HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        writer.close()
        return
    client = writer.get_extra_info("peername")[0]
    await asyncio.gather(
        _copy(
            reader, up_writer, Connection="close", X_Forwarded_Proto="https", X_Forwarded_For=client
        ),  # fmt: skip
        _copy(up_reader, writer, Connection="close"),
    )


@contextmanager
def tls_router(upstream_port: int) -> Iterator[int]:
    """Route https://localhost:PORT to `web` on `upstream_port`; yields PORT. The router
    runs its own event loop in a thread (the browser driver has one in this thread)."""
    listening: queue.Queue[int] = queue.Queue()
    loop = asyncio.new_event_loop()
    stop = loop.create_future()

    async def serve(context: ssl.SSLContext) -> None:
        server = await asyncio.start_server(
            lambda r, w: _route(upstream_port, r, w), "127.0.0.1", 0, ssl=context, limit=HEAD_LIMIT
        )
        listening.put(server.sockets[0].getsockname()[1])
        async with server:
            await stop

    with tempfile.TemporaryDirectory() as folder:
        context = _self_signed(Path(folder))
        thread = threading.Thread(target=loop.run_until_complete, args=(serve(context),))
        thread.start()
        try:
            yield listening.get(timeout=10)
        finally:
            loop.call_soon_threadsafe(stop.set_result, None)
            thread.join(10)
            loop.close()
