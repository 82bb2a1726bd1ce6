"""The Content-Security-Policy middleware: django-csp's, made to leave alone at once the
paths its policy excludes (the API's JSON answers)."""

from __future__ import annotations

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp 4 builds the policy, and the report-only one, for every answer before
    it looks at EXCLUDE_URL_PREFIXES: 4% of a move request's CPU, measured, for a header
    an API answer never gets. An answer no policy applies to returns untouched."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if _unpoliced(request.path_info):
            return response
        return super().process_response(request, response)


def _unpoliced(path: str) -> bool:
    """Whether no policy applies to `path`: the policy excludes it, and there is no
    report-only policy (which has exclusions of its own)."""
    if getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None):
        return False
    excluded = (settings.CONTENT_SECURITY_POLICY or {}).get("EXCLUDE_URL_PREFIXES") or ()
    return path.startswith(tuple(excluded))
