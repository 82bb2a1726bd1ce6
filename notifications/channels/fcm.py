"""Firebase Cloud Messaging to one mobile app, through FCM's HTTP v1 API.

pyfcm does the protocol: the OAuth 2 access token from the service account (google-auth,
which takes the token URL from the account's JSON), the message, the answer's meaning.
404 says the app was uninstalled or the token is stale, so its row is deleted; 429, 5xx
and network errors may pass.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import requests
from django.conf import settings
from django.utils import timezone
from google.auth.exceptions import GoogleAuthError, TransportError
from google.auth.transport.requests import Request
from google.oauth2 import service_account
from pyfcm import FCMNotification
from pyfcm.errors import FCMError, FCMNotRegisteredError, FCMServerError, InvalidDataError
from requests.adapters import HTTPAdapter

from notifications.errors import PermanentError, TransientError
from notifications.models import DeviceToken

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


class _Client(FCMNotification):  # type: ignore[misc]  # pyfcm has no type information
    """pyfcm's client, for a Celery worker: one request per send, no sleeping, no waiting
    longer than NOTICE_SEND_TIMEOUT. pyfcm itself sleeps for as long as a 429's
    Retry-After asks, again and again, and retries 502 and 503 for minutes, and
    google-auth waits 120 s for an access token; here a failed send raises at once and
    the task is retried later."""

    def send_request(self, payload: bytes | None = None, timeout: float | None = None) -> Any:
        return self.requests_session.post(self.fcm_end_point, data=payload, timeout=timeout)

    def _get_access_token(self) -> str:
        try:
            self.credentials.refresh(_TokenRequest())
        except Exception as error:  # as pyfcm does: fcm.send tells which may pass
            raise InvalidDataError(error) from error
        return str(self.credentials.token)


class _TokenRequest(Request):
    """google-auth's transport for the access token, with our timeout."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["timeout"] = settings.NOTICE_SEND_TIMEOUT.total_seconds()
        return super().__call__(*args, **kwargs)  # type: ignore[no-untyped-call]


@lru_cache(maxsize=1)
def _client(credentials: str, api_url: str) -> _Client:
    """One client per configuration, kept so that its access token (an hour long) is
    reused, not fetched again for each notice."""
    account = service_account.Credentials.from_service_account_info(  # type: ignore[no-untyped-call]
        json.loads(credentials), scopes=[SCOPE]
    )
    client = _Client(credentials=account, adapter=HTTPAdapter(max_retries=0))
    client.FCM_END_POINT_BASE = api_url
    return client


def send(device: DeviceToken, payload: dict[str, Any]) -> None:
    """Deliver `payload` to one app, or raise TransientError or PermanentError (after
    deleting the token when FCM says it is no longer registered)."""
    if settings.FCM_CREDENTIALS is None:
        raise PermanentError("FCM is off: FCM_CREDENTIALS is not set")
    client = _client(json.dumps(settings.FCM_CREDENTIALS, sort_keys=True), settings.FCM_API_URL)
    table = str(payload.get("table", ""))
    try:
        client.notify(
            fcm_token=device.token,
            notification_title=payload.get("title"),
            notification_body=payload.get("body"),
            # The app reads what to open from the data: FCM's data values are strings.
            data_payload={key: str(value) for key, value in payload.items()},
            # A newer notice about the same table replaces the older one on the device.
            android_config={"collapse_key": table, "notification": {"tag": table}}
            if table
            else None,
            apns_config={"headers": {"apns-collapse-id": table}} if table else None,
            timeout=settings.NOTICE_SEND_TIMEOUT.total_seconds(),
        )
    except FCMNotRegisteredError as error:
        device.delete()
        raise PermanentError("FCM: the token is no longer registered, deleted") from error
    except (FCMServerError, requests.RequestException) as error:
        raise TransientError(f"FCM: {error}") from error
    except InvalidDataError as error:
        # pyfcm wraps the failure to get an access token in this too.
        cause = error.args[0] if error.args else None
        if isinstance(cause, TransportError) or (
            isinstance(cause, GoogleAuthError) and cause.retryable
        ):
            raise TransientError(f"FCM: no access token: {cause}") from error
        raise PermanentError(f"FCM refused the message: {error}") from error
    except FCMError as error:
        # AuthenticationError (401), FCMSenderIdMismatchError (403): retrying won't help.
        raise PermanentError(f"FCM: {type(error).__name__}: {error}") from error
    DeviceToken.objects.filter(pk=device.pk).update(last_success_at=timezone.now())
