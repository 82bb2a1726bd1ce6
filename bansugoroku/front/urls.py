from django.urls import path

from bansugoroku.front import (
    device_views,
    history_pages,
    info_pages,
    notice_pages,
    play_views,
    player_pages,
    views,
    waiting,
)

urlpatterns = [
    path("", play_views.home, name="home"),
    path("new", play_views.table_new, name="table-new"),
    path("join", play_views.join, name="table-join"),
    path("tables/<str:code>", play_views.table, name="table-page"),
    path("device", device_views.device_link_new, name="device-new"),
    path("device/<str:link>", device_views.device, name="device"),
    path("healthz", views.healthz, name="healthz"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("t/<str:code>", views.invite, name="invite"),
    path("me/tables", player_pages.my_tables, name="my-tables"),
    path("me/next-table", waiting.next_table, name="next-table"),
    path("settings", player_pages.settings_page, name="settings"),
    path("settings/player", player_pages.switch_player, name="settings-player"),
    path("language", player_pages.language, name="language"),
    path("settings/notices", notice_pages.notices, name="settings-notices"),
    path("settings/email/confirm", notice_pages.email_confirm, name="email-confirm"),
    path("unsubscribe/<str:token>", notice_pages.unsubscribe, name="unsubscribe"),
    path("tables/<str:code>/games", history_pages.games, name="games"),
    path("tables/<str:code>/games/<int:number>", history_pages.game, name="game"),
    path("rules", info_pages.rules, name="rules"),
    path("data", info_pages.data, name="data"),
    path(".well-known/assetlinks.json", views.assetlinks, name="assetlinks"),
    path(
        ".well-known/apple-app-site-association",
        views.apple_app_site_association,
        name="apple-app-site-association",
    ),
]
