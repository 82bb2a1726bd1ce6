"""No secret of a link in any log line: every record every logger of the process makes
(the web process's access and error logs, gunicorn's and tornado's; Django's request
warnings; Celery's worker and beat, their tasks' arguments and results) passes through
`bansugoroku.lib.secret_links.redact` when it is made, its traceback too.

A record factory rather than a filter: gunicorn and Celery configure handlers of their
own, which a filter in Django's LOGGING would not reach.
"""

from __future__ import annotations

import logging
from typing import Any

from bansugoroku.lib.secret_links import redact

_made_by = logging.getLogRecordFactory()


def redacted_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
    record = _made_by(*args, **kwargs)
    try:
        message = record.getMessage()
    except (TypeError, ValueError):  # arguments that do not fit the message: as they are
        return record
    hidden = redact(message)
    if hidden != message:
        record.msg, record.args = hidden, None
    if record.exc_info:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
    return record


def install() -> None:
    """Make every record of this process through `redacted_record`; once is enough."""
    if logging.getLogRecordFactory() is not redacted_record:
        logging.setLogRecordFactory(redacted_record)
