"""The OpenAPI description of the API's answers, generated from their TypedDicts in
`bansugoroku.games.shapes`; `tests/api/test_schema.py` validates real answers against it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import NoneType, UnionType
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from bansugoroku.api.problems import PROBLEM_TYPES
from bansugoroku.games.shapes import Doc, Format, OneOf
from engine.turn import Reason

_FIELDS: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
    str: serializers.CharField,
    int: serializers.IntegerField,
    float: serializers.FloatField,
    bool: serializers.BooleanField,
    "date-time": serializers.DateTimeField,
    "uri": serializers.URLField,
}


@cache
def component(shape: Any) -> type[serializers.Serializer[Any]]:
    """The schema component of a TypedDict: a serializer class named after it, with its
    docstring and a field per key, optional when NotRequired. Made once, when the views
    are defined, for drf-spectacular to read: nothing serializes with it.

    A shape whose name would be a model's (`shapes.TableStateJson` beside
    `models.TableState`) ends in "Json" in the code only: clients see the component
    named without it, `TableState`."""
    if not is_typeddict(shape):
        raise TypeError(f"{shape!r} is not a TypedDict")
    fields = {
        key: _field(hint, required=key in shape.__required_keys__)
        for key, hint in get_type_hints(shape, include_extras=True).items()
    }
    attributes = {"__doc__": shape.__doc__, "__module__": shape.__module__, **fields}
    return type(shape.__name__.removesuffix("Json"), (serializers.Serializer,), attributes)


def _field(hint: Any, **options: Any) -> serializers.Field[Any, Any, Any, Any]:
    """The field that documents a value of type `hint`: its `Annotated` metadata gives
    the description, the choices or the format, and `X | None` allows null."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Required, NotRequired):
        return _field(args[0], **options)
    if origin is Annotated:
        for meta in hint.__metadata__:
            if isinstance(meta, Doc):
                options["help_text"] = meta.text
            elif isinstance(meta, OneOf):
                # Django choices give their labels, which the enum's description shows.
                options["choices"] = list(getattr(meta.choices, "choices", meta.choices))
            elif isinstance(meta, Format):
                options["format"] = meta.name
            else:
                raise TypeError(f"unknown metadata {meta!r} in {hint!r}")
        return _field(args[0], **options)
    if origin in (Union, UnionType):
        (value,) = (arg for arg in args if arg is not NoneType)
        return _field(value, allow_null=True, **options)
    if origin is Literal:
        return serializers.ChoiceField(list(args), **options)
    if "choices" in options:
        return serializers.ChoiceField(options.pop("choices"), **options)
    if is_typeddict(hint):
        return component(hint)(**options)
    if origin is list:
        if is_typeddict(args[0]):
            return component(args[0])(many=True, **options)
        return serializers.ListField(child=_field(args[0]), **options)
    if origin is dict:
        return serializers.DictField(**options)  # free-form
    kind = _FIELDS.get(options.pop("format", hint))
    if kind is None:
        raise TypeError(f"no schema for {hint!r}")
    return kind(**options)


class ProblemSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.CharField(help_text="A link to /api/v1/problems/{code}.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField(help_text="What went wrong, for a person.")
    code = serializers.CharField(
        help_text="Stable, for clients to switch on: "
        + ", ".join(PROBLEM_TYPES)
        + ". GET /api/v1/problems lists them with their status and title."
    )
    # The serializer's metaclass takes declared fields out of the class, so this one does
    # not replace Serializer.errors; the stubs cannot tell.
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Per field, on invalid_request."
    )
    version = serializers.IntegerField(
        required=False, help_text="The table's version, on stale_state."
    )
    reason = serializers.CharField(
        required=False,
        help_text="On illegal_move: " + ", ".join(Reason) + " (GET /api/v1/problems says what "
        "each means). More may come: treat an unknown one as a refusal.",
    )
    move = serializers.ListField(child=serializers.IntegerField(), required=False)
    index = serializers.IntegerField(required=False, help_text="Which sent move was refused.")
    limit = serializers.IntegerField(
        required=False, help_text="On too_many_subscriptions: how many of that kind you may have."
    )


PROBLEM = OpenApiResponse(ProblemSerializer, description="A problem (RFC 9457).")


def problems(*statuses: int) -> dict[tuple[int, str], Any]:
    """Error answers, under the media type they are really sent with."""
    return {(status, "application/problem+json"): PROBLEM for status in statuses}


UNAVAILABLE = (
    "`unavailable`: the database could not be reached, nothing was changed; try again "
    "after Retry-After."
)
OUTCOME_UNKNOWN = (
    " Or `outcome_unknown`: the connection was lost while the change was being saved, so "
    "it may have been made: GET the table, and if its `version` has moved on from the one "
    "sent, it was."
)
ANY_REQUEST = {
    401: "`not_authenticated`: no player token, or one the server does not know.",
    405: "`method_not_allowed`: the path does not take this method.",
    406: "`not_acceptable`: the Accept header names no media type this answer comes in.",
    413: "`payload_too_large`: the body is over the limit, API_MAX_BODY_SIZE (16 KiB unless set).",
    415: "`unsupported_media_type`: the body is not sent as application/json.",
    429: "`throttled`: too many requests; try again after Retry-After seconds.",
    503: UNAVAILABLE,
}
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    description="Seconds to wait before trying again.",
    response=[429, 503],
)


class AutoSchema(BaseAutoSchema):
    """drf-spectacular's, adding the problems any request can meet to every operation:
    401 when it needs a token, 405, 406, 413 and 415 when it takes a body, 429 when it
    is rate limited, and 503 (`outcome_unknown` too on the table changes). Each view
    documents only its own refusals."""

    def _any_request(self) -> dict[int, str]:
        statuses = {405, 406, 503}
        auth = self.get_auth()
        if auth and {} not in auth:
            statuses.add(401)
        if self.method in ("POST", "PUT", "PATCH", "DELETE") and self.get_request_serializer():
            statuses |= {413, 415}
        if self.view.get_throttles():
            statuses.add(429)
        described = {status: ANY_REQUEST[status] for status in statuses}
        if self.method == "POST" and self.path.startswith("/api/v1/tables"):
            described[503] += OUTCOME_UNKNOWN
        return described

    def _get_request_body(self, direction: Any = "request") -> Any:
        """drf-spectacular documents a body only for POST, PUT and PATCH; the push
        endpoints' DELETE names what to delete in its body (an endpoint URL, a token:
        secrets that don't belong in a path or a log line)."""
        # drf-spectacular leaves this one untyped.
        body: Callable[[Any], Any] = super()._get_request_body
        if self.method != "DELETE":
            return body(direction)
        self.method = "POST"
        try:
            return body(direction)
        finally:
            self.method = "DELETE"

    def get_override_parameters(self) -> list[Any]:
        return [*super().get_override_parameters(), RETRY_AFTER]

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        bodies: dict[str, Any] = super()._get_response_bodies(direction)
        for status, description in self._any_request().items():
            answer = OpenApiResponse(ProblemSerializer, description=description)
            # drf-spectacular leaves this one untyped.
            bodies[str(status)] = self._get_response_for_code(  # type: ignore[no-untyped-call]
                answer, str(status), ["application/problem+json"], direction
            )
        return dict(sorted(bodies.items()))
