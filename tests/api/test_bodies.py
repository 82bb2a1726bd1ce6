"""Request bodies the parser must refuse cleanly: nested too deep, or too large."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

PROBLEM = "application/problem+json"

DEEP = [
    "[" * 2000 + "]" * 2000,
    '{"a":' * 2000 + "1" + "}" * 2000,
    '{"name": ' + "[" * 2000 + "]" * 2000 + "}",
]


@pytest.mark.parametrize("raw", DEEP, ids=["lists", "objects", "in_a_field"])
def test_json_nested_too_deep_is_400_even_without_a_token(api, raw):
    assert len(raw) < 16_000
    answer = api.call("POST", "players", raw=raw)
    assert answer.status == 400, answer.body
    assert answer.headers["Content-Type"] == PROBLEM
    assert answer.body["code"] == "invalid_request"


def test_json_nested_too_deep_in_a_move_is_400(host, guest, table):
    answer = host.call(
        "POST",
        f"tables/{table}/moves",
        raw='{"version": 1, "moves": ' + "[" * 3000 + "]" * 3000 + "}",
    )
    assert answer.status == 400, answer.body
    assert answer.body["code"] == "invalid_request"


def test_json_nested_deep_but_parsed_is_a_plain_400(api):
    raw = '{"name": ' + "[" * 500 + "]" * 500 + "}"
    answer = api.call("POST", "players", raw=raw)
    assert answer.status == 400, answer.body
    assert answer.body["code"] == "invalid_request"


def test_a_body_over_the_api_limit_is_413(api):
    raw = '{"name": "' + "x" * settings.API_MAX_BODY_SIZE + '"}'
    answer = api.call("POST", "players", raw=raw)
    assert answer.status == 413, answer.body
    assert answer.headers["Content-Type"] == PROBLEM
    assert answer.body["code"] == "payload_too_large"
    assert api.get("problems/payload_too_large").body["status"] == 413


def test_a_body_over_djangos_upload_limit_is_413_too(api):
    raw = '{"name": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + '"}'
    answer = api.call("POST", "players", raw=raw)
    assert answer.status == 413, answer.body
    assert answer.body["code"] == "payload_too_large"


def test_a_body_just_under_the_limit_is_parsed(api):
    raw = '{"name": "Aiko", "pad": "' + "x" * (settings.API_MAX_BODY_SIZE - 100) + '"}'
    answer = api.call("POST", "players", raw=raw)
    assert answer.status == 400  # the unknown field, not the size
    assert "pad" in str(answer.body["errors"])


def test_errors_keyed_by_a_list_index_render_as_json():
    """DRF keys a list field's errors by the item's index, an int; the renderer must
    write them (as strings, like the standard json module) rather than fail with a 500."""
    from rest_framework.settings import api_settings

    renderer = api_settings.DEFAULT_RENDERER_CLASSES[0]()
    body = renderer.render({"moves": {0: ["A valid integer is required."]}})
    assert json.loads(body) == {"moves": {"0": ["A valid integer is required."]}}
