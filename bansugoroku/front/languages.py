"""The pages' language: Django's LocaleMiddleware, but for the pages alone.

The API keeps speaking English whatever `Accept-Language` says: its answers are a
contract that apps switch on by `code` and translate themselves, and Django's and DRF's
own catalogues would otherwise translate a part of an answer (a field's error, DRF's
`detail`) and leave the rest (the titles, the game's messages) in English.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

API_PREFIX = "/api/"


class PageLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith(API_PREFIX):
            translation.activate(settings.LANGUAGE_CODE)
            request.LANGUAGE_CODE = settings.LANGUAGE_CODE
            return
        super().process_request(request)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if request.path_info.startswith(API_PREFIX):
            return response
        return super().process_response(request, response)
