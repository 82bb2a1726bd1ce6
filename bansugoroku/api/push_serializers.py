"""Request bodies of the push endpoints: a browser's PushSubscription as its `toJSON()`
writes it, and an app's FCM registration token. Strict, as every body of the API.

The endpoint is a URL the workers will later POST to, so it must be https on one of the
push services the browsers use (PUSH_SERVICE_HOSTS): otherwise a hostile client could
have the workers call any host, an internal one too (a public name can resolve to a
private address, so refusing private addresses alone would not do), and on the port
of https, not any service that host runs. Only a development server that listens on
loopback alone (`LOOPBACK_ONLY`) also takes a push service on loopback, such as the
tests' own, over http and on any port: one the network reaches would let anyone on it
have the worker post to this machine's own services.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.validators import RegexValidator
from rest_framework import serializers

from bansugoroku.api.serializers import StrictSerializer, Text
from notifications.channels.keys import b64url, b64url_decode
from notifications.models import Platform

LOOPBACK_NAMES = ("localhost", "ip6-localhost")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in LOOPBACK_NAMES or host.endswith(".localhost")


def _is_push_service(host: str) -> bool:
    """`host` is one of PUSH_SERVICE_HOSTS, where `*.example.com` names its subdomains."""
    return any(
        host.endswith(known[1:]) if known.startswith("*.") else host == known
        for known in settings.PUSH_SERVICE_HOSTS
    )


def check_endpoint(value: str) -> None:
    try:
        parts = urlsplit(value)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:  # a bracketed name, a bad port, a look-alike of "/" or "@" in the host
        raise serializers.ValidationError("not a push service's URL") from None
    if parts.username is not None or parts.password is not None or not host:
        raise serializers.ValidationError("not a push service's URL")
    if settings.LOOPBACK_ONLY and parts.scheme in ("http", "https") and _is_loopback(host):
        return
    if parts.scheme != "https":
        raise serializers.ValidationError("a push endpoint must be an https:// URL")
    if not _is_push_service(host):
        raise serializers.ValidationError(
            f"{host} is not a push service this server sends to (PUSH_SERVICE_HOSTS)"
        )
    if port not in (None, 443):
        raise serializers.ValidationError("a push endpoint must use https's own port, 443")


class KeyField(Text):
    """Base64url bytes, padded or not, of one exact length; kept unpadded."""

    def __init__(self, *, size: int, **kwargs: Any) -> None:
        self.size = size
        super().__init__(max_length=4 * size // 3 + 4, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            raw = b64url_decode(text)
        except ValueError:
            raise serializers.ValidationError("not base64url") from None
        if len(raw) != self.size:
            raise serializers.ValidationError(f"{len(raw)} bytes; it must be {self.size}")
        self.check(raw)
        return b64url(raw)

    def check(self, raw: bytes) -> None:
        """More than the length, where the key has more to it."""


class P256Key(KeyField):
    """The browser's ECDH public key: an uncompressed point on P-256 (RFC 8291 §3.2)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(size=65, **kwargs)

    def check(self, raw: bytes) -> None:
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError:
            raise serializers.ValidationError("not a point on the P-256 curve") from None


class PushKeysSerializer(StrictSerializer):
    p256dh = P256Key(help_text="The browser's P-256 ECDH key, base64url (65 bytes).")
    auth = KeyField(size=16, help_text="The authentication secret, base64url (16 bytes).")


class EndpointField(serializers.URLField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=2048, validators=[check_endpoint], **kwargs)


class PushSubscriptionSerializer(StrictSerializer):
    """What `JSON.stringify(pushSubscription)` gives, plus an optional label."""

    endpoint = EndpointField(help_text="The push service's URL for this browser (https).")
    expirationTime = serializers.IntegerField(  # noqa: N815 - the browser's own name
        required=False, allow_null=True, help_text="As browsers send it; not used."
    )
    keys = PushKeysSerializer()
    # The metaclass takes declared fields out of the class, so this one does not replace
    # Field.label; the stubs cannot tell.
    label = Text(  # type: ignore[assignment]
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Which browser, for the player's list; the User-Agent header if left out.",
    )


class PushEndpointSerializer(StrictSerializer):
    endpoint = EndpointField(help_text="The subscription's endpoint, as registered.")


FCM_TOKEN = r"^[A-Za-z0-9_:.\-]+$"


class DeviceTokenSerializer(StrictSerializer):
    token = Text(
        max_length=1024,
        validators=[RegexValidator(FCM_TOKEN, "not an FCM registration token")],
        help_text="The app's FCM registration token.",
    )


class DeviceSerializer(DeviceTokenSerializer):
    platform = serializers.ChoiceField(Platform.choices)
