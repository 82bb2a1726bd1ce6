"""What makes the site installable as an app on a phone's home screen: the web app
manifest, in the request's language. The service worker it needs is `views.service_worker`;
the icons are static files drawn from the board (`make icons`).

On an iPhone, Web Push works only in a web app installed to the home screen, so this is
also how iPhone players get their notices."""

from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

PAPER = "#f6f1e7"
"""The pages' background (site.css's --paper): the splash screen and the status bar."""

ICONS = [
    ("front/icons/board-192.png", "192x192", "any"),
    ("front/icons/board-512.png", "512x512", "any"),
    ("front/icons/board-maskable-512.png", "512x512", "maskable"),
]
"""Android's sizes; the maskable one is full bleed, its drawing in the safe zone."""


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The manifest: opens on the player's tables, standalone, named in their language.
    Browsers fetch it on every page, so it may be kept a day; it varies with the
    language, which the language cookie or Accept-Language chooses."""
    body = {
        "id": "/",
        "name": gettext("Ban-sugoroku: old Japanese backgammon"),
        "short_name": gettext("Ban-sugoroku"),
        "description": gettext("Play Ban-sugoroku by correspondence, a move when you can."),
        "lang": get_language(),
        "start_url": reverse("my-tables"),
        "scope": "/",
        "display": "standalone",
        "theme_color": PAPER,
        "background_color": PAPER,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    patch_cache_control(response, public=True, max_age=24 * 3600)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
