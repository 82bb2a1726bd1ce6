"""A push service on loopback, and a browser's side of a subscription: what a real push
service checks of our request (its VAPID signature, RFC 8292) and what a real browser
does with it (decrypt the payload, RFC 8291)."""

from __future__ import annotations

import base64
import json
import os
import time

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings

from bansugoroku.games.models import Player
from notifications.models import PushSubscription
from tests.notifications.loopback import Loopback, Received


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of a subscription: its ECDH key pair and auth secret."""

    def __init__(self, push_service: Loopback, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{push_service.url}/push/{name}"
        self.path = f"/push/{name}"

    def subscription(self) -> dict:
        """The subscription as the browser's `PushSubscription.toJSON()` gives it."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def subscribe(self, player: Player) -> PushSubscription:
        keys = self.subscription()["keys"]
        return PushSubscription.objects.create(player=player, endpoint=self.endpoint, **keys)

    def decrypt(self, request: Received) -> dict:
        assert request.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            request.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def check_vapid(request: Received, audience: str) -> dict:
    """The push service's check of `Authorization: vapid t=<JWT>, k=<key>`: the ES256
    signature verifies with the key k, which is the server's; the claims fit."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == settings.VAPID_PUBLIC_KEY
    public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public_key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience
    assert time.time() < decoded["exp"] <= time.time() + 24 * 3600
    assert decoded["sub"] == settings.VAPID_SUBJECT
    return decoded


def p256dh() -> str:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return b64(point)


# The browser's push service (Google's, for Chromium) can't be reached from here, so
# pushManager stands in for it with the subscription a browser would get; everything else
# is real: the key from the API, the worker's registration, the POST and DELETE with the
# player's cookie and the CSRF token.
PUSH_SERVICE_STAND_IN = """([endpoint, p256dh, auth]) => {
  const subscription = {
    endpoint,
    options: {},
    toJSON: () => ({endpoint, expirationTime: null, keys: {p256dh, auth}}),
    unsubscribe: async () => { window.unsubscribed = true; return true; },
  };
  PushManager.prototype.getSubscription = async function () {
    return window.subscribedWith ? subscription : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.subscribedWith = btoa(String.fromCharCode(...key));
    return subscription;
  };
}"""
