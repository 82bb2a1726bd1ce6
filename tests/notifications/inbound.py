"""Mail coming in as Postmark's inbound webhook posts it (its JSON, as documented, with
the fields anymail reads), so that a reply to a "your turn" e-mail runs through
anymail's real parser; and the reply a mail program would write to a received mail."""

from __future__ import annotations

import base64
import json
import ssl
import urllib.request
import uuid
from typing import Any

SECRET = "hook:s3cret"
PATH = "/anymail/postmark/inbound/"


def inbound(
    to: str,
    sender: str,
    text: str = "",
    html: str = "",
    *,
    subject: str = "Re: Your turn",
    message_id: str | None = None,
    cc: str = "",
    spf: str = "Pass",
    headers: tuple[tuple[str, str], ...] = (),
) -> dict[str, Any]:
    """Postmark's inbound body for a mail from `sender` to `to`, with the headers
    Postmark writes on top: its SPF check of the sender's server (`spf`: "Pass",
    "Fail", "SoftFail", "None", or "" for no such header) and SpamAssassin's, then
    `headers` as the sender wrote them."""
    message_id = message_id or f"<{uuid.uuid4()}@mail.example.net>"
    local = to.partition("@")[0]
    mailbox_hash = local.partition("+")[2]
    return {
        "FromName": sender.partition("@")[0].title(),
        "MessageStream": "inbound",
        "From": sender,
        "FromFull": {"Email": sender, "Name": sender.partition("@")[0].title(), "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": mailbox_hash}],
        "Cc": cc,
        "CcFull": [{"Email": cc, "Name": "", "MailboxHash": ""}] if cc else [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": to,
        "Subject": subject,
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "MailboxHash": mailbox_hash,
        "Date": "Tue, 1 Dec 2026 20:00:00 +0000",
        "TextBody": text,
        "HtmlBody": html,
        "StrippedTextReply": "",
        "Tag": "",
        "Headers": [
            *([{"Name": "Received-SPF", "Value": received_spf(spf, sender)}] if spf else []),
            {"Name": "X-Spam-Status", "Value": "No"},
            {"Name": "X-Spam-Tests", "Value": "SPF_HELO_NONE"},
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            {"Name": "Message-ID", "Value": message_id},
            *({"Name": name, "Value": value} for name, value in headers),
        ],
        "Attachments": [],
    }


def received_spf(result: str, sender: str) -> str:
    """A Received-SPF header's value as Postmark writes it, for mail from `sender`."""
    comment = {"Pass": "sender SPF authorized", "Fail": "SPF fail - not authorized"}
    return (
        f"{result} ({comment.get(result, 'no SPF record')}) identity=mailfrom; "
        "client-ip=209.85.160.180; helo=mail-qt1-f180.google.com; "
        f"envelope-from={sender}; receiver=451d9b70cf9364d23ff6f9d51d870251+play@"
        "inbound.postmarkapp.com"
    )


def basic(secret: str = SECRET) -> str:
    return "Basic " + base64.b64encode(secret.encode()).decode()


def post_over_http(
    base_url: str, body: dict[str, Any], secret: str = SECRET, tls: ssl.SSLContext | None = None
) -> int:
    """Post the body to the site's inbound webhook as Postmark does; the status. `tls`
    for a site behind a router whose certificate is its own."""
    request = urllib.request.Request(
        base_url + PATH,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": basic(secret)},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=20, context=tls) as answer:
        return int(answer.status)


def quoted_reply(move: str, original: str) -> str:
    """A reply written above the mail it answers, quoted as most programs quote it,
    with a signature below."""
    quoted = "\n".join(f"> {line}" for line in original.splitlines())
    said = "On Tue, 1 Dec 2026 at 20:00, Ban-sugoroku wrote:"
    return f"{move}\n\n{said}\n{quoted}\n\n-- \nSent from my phone\n"
