from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from notifications.replies.play import inbound_webhook
from notifications.webhooks import tracking_webhook

urlpatterns = [
    # Namespaced: the API's names (unsubscribe, email-confirm, games, game) are the
    # pages' too, and `reverse("api:...")` says which is meant. First: most requests are
    # the API's, and each pattern tried before theirs costs them (finding a move's view
    # took 4% of its CPU behind the pages' 22 patterns, 2% before them, measured).
    path("api/v1/", include(("bansugoroku.api.urls", "api"))),
    path("", include("bansugoroku.front.urls")),
    path("admin/", admin.site.urls),
    # The mail provider's tracking webhook (bounces, complaints), only the configured
    # provider's and only behind its secret: notifications.webhooks.
    path("anymail/<str:esp>/tracking/", tracking_webhook, name="tracking-webhook"),
    # Replies to "your turn" e-mails, which play the move they hold, only while the site
    # receives mail and only behind the same secret: notifications.replies.play.
    path("anymail/<str:esp>/inbound/", inbound_webhook, name="inbound-webhook"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file of its own, so the
    # page's Content-Security-Policy needs no inline script.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="schema", template_name="front/swagger_ui.html"
        ),
        name="docs",
    ),
]
