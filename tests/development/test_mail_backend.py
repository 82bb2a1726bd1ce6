"""The development e-mail backend: each message on the console and in a file of its own."""

from __future__ import annotations

import email
import email.policy
import io

from django.core import mail

from bansugoroku.development.mail_backend import ConsoleAndFilesBackend


def test_each_message_goes_to_the_console_and_to_an_eml_file_of_its_own(settings, tmp_path):
    settings.EMAIL_FILE_PATH = tmp_path / "mail"
    console = io.StringIO()
    connection = ConsoleAndFilesBackend(stream=console)
    messages = [
        mail.EmailMessage(
            f"Your turn {n}", f"Ben played 13/10 10/9* ({n})", to=["aiko@example.com"]
        )
        for n in (1, 2)
    ] + [mail.EmailMessage("Ton tour", "Ben a joué: 藤", to=["chie@example.com"])]

    assert connection.send_messages(messages) == 3

    files = sorted((tmp_path / "mail").iterdir())
    assert [f.suffix for f in files] == [".eml"] * 3
    parsed = [email.message_from_bytes(f.read_bytes(), policy=email.policy.default) for f in files]
    assert [p["Subject"] for p in parsed] == ["Your turn 1", "Your turn 2", "Ton tour"]
    assert parsed[2].get_content().strip() == "Ben a joué: 藤"
    assert parsed[0]["To"] == "aiko@example.com"
    shown = console.getvalue()
    assert "Subject: Your turn 1" in shown and "Subject: Ton tour" in shown


def test_send_mail_through_it_shows_the_message_and_keeps_a_file(settings, tmp_path, capsys):
    settings.EMAIL_BACKEND = "bansugoroku.development.mail_backend.ConsoleAndFilesBackend"
    settings.EMAIL_FILE_PATH = tmp_path
    assert mail.send_mail("Hello", "Welcome", None, ["ben@example.com"]) == 1
    [sent] = tmp_path.iterdir()
    assert b"Subject: Hello" in sent.read_bytes()
    assert "Subject: Hello" in capsys.readouterr().out
