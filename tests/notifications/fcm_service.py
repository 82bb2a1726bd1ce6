"""FCM on loopback: FCM cannot be reached from here, so a server on loopback plays both
Google's OAuth token endpoint and FCM's HTTP v1 API. The test's service account (a fresh
RSA key) names that token endpoint in its `token_uri`, as a real account's JSON names
Google's, and FCM_API_URL points pyfcm at the same server. The server verifies the JWT
assertion with the account's public key, checks the access token on each message, and
answers as FCM does (200 unless told otherwise)."""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import parse_qs

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.notifications.loopback import Loopback, Received, Reply

PROJECT = "bansugoroku-test"
ACCESS_TOKEN = "ya29.loopback-test-token"
SEND_PATH = f"/v1/projects/{PROJECT}/messages:send"
UNREGISTERED = {
    "error": {
        "code": 404,
        "message": "Requested entity was not found.",
        "status": "NOT_FOUND",
        "details": [
            {
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": "UNREGISTERED",
            }
        ],
    }
}


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Google:
    """The token endpoint and FCM, on one loopback server."""

    def __init__(self, server: Loopback) -> None:
        self.server = server
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.account = {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "test-key",
            "private_key": self.key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            ).decode(),
            "client_email": f"push@{PROJECT}.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": f"{server.url}/token",
        }
        server.route("/token", self.token)
        self.answers: dict[str, Reply] = {}
        server.route(SEND_PATH, self.send)

    def token(self, request: Received) -> Reply:
        form = parse_qs(request.body.decode())
        assert form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
        header, claims, signature = form["assertion"][0].split(".")
        self.key.public_key().verify(
            unb64(signature),
            f"{header}.{claims}".encode(),
            padding.PKCS1v15(),
            hashes.SHA256(),
        )
        decoded = json.loads(unb64(claims))
        assert decoded["iss"] == self.account["client_email"]
        assert decoded["aud"] == "https://oauth2.googleapis.com/token"  # as Google checks it
        assert decoded["scope"] == "https://www.googleapis.com/auth/firebase.messaging"
        assert decoded["exp"] > time.time()
        return Reply(
            200, {"access_token": ACCESS_TOKEN, "expires_in": 3600, "token_type": "Bearer"}
        )

    def send(self, request: Received) -> Reply:
        assert request.headers["authorization"] == f"Bearer {ACCESS_TOKEN}"
        token = json.loads(request.body)["message"]["token"]
        return self.answers.get(token, Reply(200, {"name": f"projects/{PROJECT}/messages/1"}))

    def messages(self) -> list[dict]:
        return [json.loads(r.body) for r in self.server.requests if r.path == SEND_PATH]
