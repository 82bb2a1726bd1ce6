"""The development e-mail backend: each message to the console and to a `.eml` file.

Django's console backend alone scrolls a message away among the log lines of the web
server, the worker and beat that `make run` interleaves, and its file backend writes
every message of a connection into one log-like file. A newcomer wants to see, and
open in a mail program, the one message that was just sent: so each goes to the
console as before and to a file of its own in EMAIL_FILE_PATH (the git-ignored
`.mail/`), named so that the folder lists them oldest first.
"""

from __future__ import annotations

import itertools
import os
from email.message import Message
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.utils import timezone

_numbers = itertools.count(1)


class ConsoleAndFilesBackend(ConsoleBackend):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.folder = Path(settings.EMAIL_FILE_PATH)

    def write_message(self, message: EmailMessage) -> None:
        super().write_message(message)
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"{timezone.now():%Y%m%d-%H%M%S-%f}-{os.getpid()}-{next(_numbers)}.eml"
        mime: Message = message.message()
        (self.folder / name).write_bytes(mime.as_bytes())
