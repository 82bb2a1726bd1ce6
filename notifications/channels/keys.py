"""The push channels' keys, read from the environment by the settings: the VAPID key pair
that signs Web Push requests (RFC 8292), and FCM's service account.

Kept free of Django's models so that the settings can import it; a value that cannot be
used stops startup with ImproperlyConfigured, as every other setting does.
"""

from __future__ import annotations

import base64
import json
import os
import tempfile
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys (RFC 8291, RFC 8292)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """The bytes of base64url text, padded or not (browsers send either); ValueError if
    it is not base64url."""
    cleaned = text.strip()
    if not cleaned or not all(c.isalnum() or c in "-_=" for c in cleaned):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(cleaned.rstrip("=") + "=" * (-len(cleaned.rstrip("=")) % 4))


def new_vapid_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def raw_private_key(key: ec.EllipticCurvePrivateKey) -> str:
    """The private key as base64url of its 32-byte number: how VAPID_PRIVATE_KEY is set."""
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def raw_public_key(key: ec.EllipticCurvePrivateKey) -> str:
    """The public key as browsers take it for `applicationServerKey`: base64url of the
    65-byte uncompressed point."""
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def parse_vapid_key(value: str) -> ec.EllipticCurvePrivateKey:
    """VAPID_PRIVATE_KEY: a PEM private key, or base64url of the raw 32-byte key (what
    `manage.py vapid_keys` prints, and what most Web Push tools write)."""
    try:
        if value.lstrip().startswith("-----BEGIN"):
            # Environments often keep a PEM on one line, with "\n" written out.
            pem = value.strip().replace("\\n", "\n").encode()
            key = serialization.load_pem_private_key(pem, password=None)
        else:
            raw = b64url_decode(value)
            if len(raw) != 32:
                raise ValueError(f"{len(raw)} bytes, not 32")
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except (ValueError, TypeError) as error:
        raise ImproperlyConfigured(
            f"VAPID_PRIVATE_KEY is neither a PEM private key nor base64url of a raw "
            f"P-256 key ({error}); `manage.py vapid_keys` makes one."
        ) from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY must be a P-256 (prime256v1) EC key.")
    return key


def development_vapid_key(folder: Path) -> ec.EllipticCurvePrivateKey:
    """A key made once for this checkout and kept in `folder` (git-ignored), so browsers
    subscribed in development stay subscribed across restarts. Processes starting at the
    same moment agree on one key: the file appears whole, and only the first one made."""
    path = folder / "private_key.pem"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        # A name of its own for each draft, threads of one process included.
        handle, name = tempfile.mkstemp(dir=folder, prefix=".private_key.", suffix=".pem")
        draft = Path(name)
        with os.fdopen(handle, "wb") as file:  # mkstemp makes it 0600
            file.write(
                new_vapid_key().private_bytes(
                    serialization.Encoding.PEM,
                    serialization.PrivateFormat.PKCS8,
                    serialization.NoEncryption(),
                )
            )
        try:
            os.link(draft, path)  # fails if another process was first: use its key
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return parse_vapid_key(path.read_text())


def vapid_subject(value: str | None, from_email: str) -> str:
    """VAPID_SUBJECT, the contact push services may write to (RFC 8292 §2.1): a mailto:
    or https: URI; unset, the address DEFAULT_FROM_EMAIL sends from."""
    if value is None:
        return f"mailto:{parseaddr(from_email)[1]}"
    if not value.startswith(("mailto:", "https://")):
        raise ImproperlyConfigured(
            f"VAPID_SUBJECT={value!r} must be a mailto: or https:// URI, "
            "e.g. mailto:admin@example.com."
        )
    return value


SERVICE_ACCOUNT_FIELDS = ("type", "project_id", "private_key", "client_email", "token_uri")


def fcm_service_account(value: str) -> dict[str, Any]:
    """FCM_CREDENTIALS: a Firebase service account's JSON key, given as the JSON itself or
    as the path of the file holding it."""
    try:
        text = value if value.lstrip().startswith("{") else Path(value).read_text()
        info = json.loads(text)
    except OSError as error:
        raise ImproperlyConfigured(f"FCM_CREDENTIALS: cannot read {value!r}: {error}") from None
    except ValueError as error:
        raise ImproperlyConfigured(f"FCM_CREDENTIALS is not JSON: {error}") from None
    missing = [
        name for name in SERVICE_ACCOUNT_FIELDS if not isinstance(info, dict) or not info.get(name)
    ]
    if missing or info["type"] != "service_account":
        raise ImproperlyConfigured(
            "FCM_CREDENTIALS must be a service account's JSON key (type service_account), "
            f"with {', '.join(SERVICE_ACCOUNT_FIELDS)}; missing: {', '.join(missing) or 'none'}."
        )
    return dict(info)
