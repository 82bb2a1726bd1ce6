"""A reply address mailed before "sign out other browsers" plays nothing afterwards; one
mailed after plays."""

from __future__ import annotations

import pytest
from django.test import Client

from bansugoroku.front.identity import COOKIE
from bansugoroku.games import services
from bansugoroku.games.models import Player
from notifications.models import InboundMail
from notifications.replies.play import read_pending
from tests.notifications.inbound import PATH, basic, inbound
from tests.notifications.replying import AIKO, new_game, plays, turn_mail, version


def reply(address: str, move: str) -> None:
    body = inbound(address, AIKO, move)
    headers = {"Authorization": basic()}
    assert (
        Client().post(PATH, body, content_type="application/json", headers=headers).status_code
        == 200
    )
    read_pending(older_than=0)


@pytest.mark.django_db
def test_a_reply_address_mailed_before_signing_out_others_plays_nothing(replies):
    table = new_game()
    before = turn_mail(table, replies).body["ReplyTo"]
    aiko = Player.objects.get(name="Aiko")
    phone = Client()
    phone.cookies[COOKIE] = services.player_token_add(player=aiko)
    assert phone.post("/settings/sign-out").status_code == 200
    moved = version(table)
    reply(before, plays(table)[0])
    assert version(table) == moved
    assert InboundMail.objects.get().detail == "expired"
