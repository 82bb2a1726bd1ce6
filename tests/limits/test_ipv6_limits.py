"""Every limit per client address counts an IPv6 address by its /64 (IPV6_LIMIT_PREFIX):
one subscriber is handed a whole /64, and 63 players were made from one with no 429
while each of its addresses had a budget of its own."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from bansugoroku.limits.mail_limits import MailedAddressesThrottle
from bansugoroku.limits.throttles import (
    AddressRateThrottle,
    JoinCodeThrottle,
    NewPlayerThrottle,
    WindowThrottle,
    address_key,
)
from tests.client import Api
from tests.front.pages import NEW_TABLE
from tests.notifications.helpers import send_sign_ins

ONE_NETWORK = [f"2001:db8:1:2:{n:x}:{n * 7:x}:a{n:x}:{n}" for n in range(1, 5)]
"""Four addresses of 2001:db8:1:2::/64, apart in every bit of the interface's half."""
OTHER_NETWORK = [f"2001:db8:1:3::{n}" for n in range(1, 4)]
"""Three addresses of the next /64."""


def api_from(address: str, token: str | None = None) -> Api:
    client = Api(token)
    client.client = Client(REMOTE_ADDR=address)
    return client


# Each limit, as a request counted against it from an address (the n-th of the test);
# its status code.
Ask = Callable[[str, int, str], int]
KINDS: dict[str, tuple[type[WindowThrottle], Ask]] = {
    "API requests": (
        AddressRateThrottle,
        lambda address, n, token: api_from(address, token).get("players/me").status,
    ),
    "join guesses": (
        JoinCodeThrottle,
        lambda address, n, token: api_from(address, token).post("tables/ABCDEF/join").status,
    ),
    "invitation page": (
        JoinCodeThrottle,
        lambda address, n, token: Client(REMOTE_ADDR=address).get("/t/ABCDEF").status_code,
    ),
    "new players": (
        NewPlayerThrottle,
        lambda address, n, token: api_from(address).post("players", {"name": f"P{n}"}).status,
    ),
    "new player by the form": (
        NewPlayerThrottle,
        lambda address, n, token: Client(REMOTE_ADDR=address).post("/new", NEW_TABLE).status_code,
    ),
    "sign-in mail": (
        MailedAddressesThrottle,
        lambda address, n, token: (
            api_from(address).post("sign-in", {"email": f"p{n}@example.com"}).status
        ),
    ),
    "sign-in page": (
        MailedAddressesThrottle,
        lambda address, n, token: (
            Client(REMOTE_ADDR=address).post("/sign-in", {"email": f"p{n}@example.com"}).status_code
        ),
    ),
}


@pytest.fixture
def three_each(monkeypatch) -> None:
    """Every limit per address allows three."""
    for throttle, _ in KINDS.values():
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {throttle.scope: "3/hour"})


@pytest.mark.parametrize("kind", KINDS)
def test_addresses_of_one_network_share_a_budget_and_another_has_its_own(
    kind, host, three_each, throttle_clock
):
    _, ask = KINDS[kind]
    statuses = [ask(address, n, host.token) for n, address in enumerate(ONE_NETWORK)]
    assert 429 not in statuses[:3] and statuses[3] == 429, statuses
    others = [ask(address, n, host.token) for n, address in enumerate(OTHER_NETWORK, 10)]
    assert 429 not in others, "the next /64 counts afresh"
    send_sign_ins()  # the mails asked for, off the broker


def test_the_prefix_is_configurable(api, three_each, throttle_clock, settings):
    settings.IPV6_LIMIT_PREFIX = 128
    _, ask = KINDS["new players"]
    assert [ask(address, n, "") for n, address in enumerate(ONE_NETWORK)] == [201] * 4
    settings.IPV6_LIMIT_PREFIX = 48
    networks = [f"2001:db8:9:{n:x}::1" for n in range(1, 5)]
    assert [ask(address, n, "") for n, address in enumerate(networks)] == [201] * 3 + [429]


def test_an_ipv4_mapped_address_is_its_ipv4_address(api, three_each, throttle_clock):
    _, ask = KINDS["new players"]
    addresses = ["192.0.2.1", "::ffff:192.0.2.1", "::ffff:c000:201", "192.0.2.1"]
    assert [ask(address, n, "") for n, address in enumerate(addresses)] == [201] * 3 + [429]
    assert ask("192.0.2.2", 9, "") == 201, "each IPv4 address is counted on its own"


def test_the_address_key():
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key("2001:DB8:1:2:ffff:1:2:3") == "2001:db8:1:2::"
    assert address_key("fe80::1%eth0") == "fe80::"
    assert address_key("unknown") == "unknown", "a proxy's odd entry, counted as it is"


@pytest.mark.slow
def test_admin_login_lockouts_hold_for_the_whole_network(db):
    """django-axes counts failures per name and client address, the limits' address."""
    get_user_model().objects.create_superuser("root", "root@example.com", "right horse")

    def login(password: str, address: str) -> int:
        return (
            Client()
            .post(
                "/admin/login/?next=/admin/",
                {"username": "root", "password": password},
                REMOTE_ADDR=address,
            )
            .status_code
        )

    statuses = [login(f"wrong {i}", f"2001:db8:1:2::{i + 1}") for i in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert login("right horse", "2001:db8:1:2:ffff::9") == 429
    assert login("right horse", "2001:db8:1:3::1") == 302
