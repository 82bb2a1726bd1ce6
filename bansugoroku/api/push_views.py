"""Where a player receives "your turn" notices: the server's VAPID key for browsers to
subscribe with, the browsers' Web Push subscriptions and the apps' FCM tokens."""

from __future__ import annotations

from typing import Annotated, TypedDict

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.push_serializers import (
    DeviceSerializer,
    DeviceTokenSerializer,
    PushEndpointSerializer,
    PushSubscriptionSerializer,
)
from bansugoroku.api.schema import component
from bansugoroku.api.views import parse
from bansugoroku.games.shapes import DateTime, Doc, Format, OneOf
from notifications.consent import subscriptions
from notifications.errors import PushOff
from notifications.models import DeviceToken, Platform, PushSubscription


class VapidKey(TypedDict):
    """The key browsers subscribe with: `pushManager.subscribe({applicationServerKey})`."""

    public_key: Annotated[str, Doc("The VAPID public key, base64url (65 bytes, P-256).")]


class Subscription(TypedDict):
    """A browser that receives notices."""

    id: int
    endpoint: str
    label: Annotated[str, Doc("Which browser: the label sent, or its User-Agent.")]
    created_at: DateTime
    last_success_at: Annotated[str | None, Format("date-time"), Doc("Its last notice.")]


class Device(TypedDict):
    """An app install that receives notices through FCM."""

    id: int
    platform: Annotated[str, OneOf(Platform)]
    created_at: DateTime
    last_success_at: Annotated[str | None, Format("date-time"), Doc("Its last notice.")]


def subscription_json(subscription: PushSubscription) -> Subscription:
    return {
        "id": subscription.pk,
        "endpoint": subscription.endpoint,
        "label": subscription.label,
        "created_at": subscription.created_at.isoformat(),
        "last_success_at": _when(subscription),
    }


def device_json(device: DeviceToken) -> Device:
    return {
        "id": device.pk,
        "platform": device.platform,
        "created_at": device.created_at.isoformat(),
        "last_success_at": _when(device),
    }


def _when(target: PushSubscription | DeviceToken) -> str | None:
    return target.last_success_at.isoformat() if target.last_success_at else None


class VapidKeyView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="push_vapid_public_key",
        auth=[],
        responses={200: component(VapidKey)} | schema.problems(404),
        summary="The server's VAPID public key, for browsers to subscribe with",
        description="404 `push_off` when this server sends no Web Push.",
    )
    def get(self, request: Request) -> Response:
        if settings.VAPID_PUBLIC_KEY is None:
            raise PushOff("this server has no VAPID key")
        answer: VapidKey = {"public_key": settings.VAPID_PUBLIC_KEY}
        return Response(answer, headers={"Cache-Control": "public, max-age=3600"})


LIMIT = "At most `PUSH_MAX_PER_PLAYER` (20 unless set) each: 409 `too_many_subscriptions`."


class PushSubscriptionsView(APIView):
    @extend_schema(
        operation_id="players_me_push_subscriptions",
        responses={200: component(Subscription)(many=True)},
        summary="The browsers that receive your notices",
    )
    def get(self, request: Request) -> Response:
        found = PushSubscription.objects.filter(player=player_of(request)).order_by("pk")
        return Response([subscription_json(s) for s in found])

    @extend_schema(
        operation_id="players_me_push_subscriptions_create",
        request=PushSubscriptionSerializer,
        responses={200: component(Subscription), 201: component(Subscription)}
        | schema.problems(400, 409),
        summary="Receive notices in this browser: send its PushSubscription",
        description="The body is the browser's `PushSubscription` as JSON. An endpoint "
        "registered before is updated (200), and becomes yours if another player had it; "
        "a new one is 201. The endpoint must be https. " + LIMIT,
    )
    def post(self, request: Request) -> Response:
        data = parse(PushSubscriptionSerializer, request)
        label = data.get("label") or request.headers.get("User-Agent", "")[:200]
        subscription, created = subscriptions.subscription_register(
            player=player_of(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            label=label,
        )
        return Response(subscription_json(subscription), status=201 if created else 200)

    @extend_schema(
        operation_id="players_me_push_subscriptions_delete",
        request=PushEndpointSerializer,
        responses={204: None} | schema.problems(400, 404),
        summary="Stop notices to a browser, by its endpoint",
        description="404 `subscription_not_found` if you have no subscription with it.",
    )
    def delete(self, request: Request) -> Response:
        endpoint = parse(PushEndpointSerializer, request)["endpoint"]
        subscriptions.subscription_delete(player=player_of(request), endpoint=endpoint)
        return Response(status=204)


class PushSubscriptionView(APIView):
    @extend_schema(
        operation_id="players_me_push_subscription_delete",
        parameters=[OpenApiParameter("subscription_id", int, OpenApiParameter.PATH)],
        request=None,
        responses={204: None} | schema.problems(404),
        summary="Stop notices to a browser, by its id",
        description="404 `subscription_not_found` if you have no subscription with it.",
    )
    def delete(self, request: Request, subscription_id: int) -> Response:
        subscriptions.subscription_delete(
            player=player_of(request), subscription_id=subscription_id
        )
        return Response(status=204)


class DevicesView(APIView):
    @extend_schema(
        operation_id="players_me_devices",
        responses={200: component(Device)(many=True)},
        summary="The app installs that receive your notices",
    )
    def get(self, request: Request) -> Response:
        found = DeviceToken.objects.filter(player=player_of(request)).order_by("pk")
        return Response([device_json(d) for d in found])

    @extend_schema(
        operation_id="players_me_devices_create",
        request=DeviceSerializer,
        responses={200: component(Device), 201: component(Device)} | schema.problems(400, 409),
        summary="Receive notices in this app: send its FCM registration token",
        description="A token registered before is updated (200), and becomes yours if "
        "another player had it; a new one is 201. Send the new token whenever FCM "
        "gives the app one. " + LIMIT,
    )
    def post(self, request: Request) -> Response:
        data = parse(DeviceSerializer, request)
        device, created = subscriptions.device_register(
            player=player_of(request), token=data["token"], platform=data["platform"]
        )
        return Response(device_json(device), status=201 if created else 200)

    @extend_schema(
        operation_id="players_me_devices_delete",
        request=DeviceTokenSerializer,
        responses={204: None} | schema.problems(400, 404),
        summary="Stop notices to an app install, by its token",
        description="404 `subscription_not_found` if you have no device with it.",
    )
    def delete(self, request: Request) -> Response:
        token = parse(DeviceTokenSerializer, request)["token"]
        subscriptions.device_delete(player=player_of(request), token=token)
        return Response(status=204)
