from django.urls import path

from bansugoroku.front import device_views, play_views, views

urlpatterns = [
    path("", play_views.home, name="home"),
    path("new", play_views.table_new, name="table-new"),
    path("join", play_views.join, name="table-join"),
    path("tables/<str:code>", play_views.table, name="table-page"),
    path("device", device_views.device_link_new, name="device-new"),
    path("device/<str:link>", device_views.device, name="device"),
    path("healthz", views.healthz, name="healthz"),
    path("t/<str:code>", views.invite, name="invite"),
    path(".well-known/assetlinks.json", views.assetlinks, name="assetlinks"),
    path(
        ".well-known/apple-app-site-association",
        views.apple_app_site_association,
        name="apple-app-site-association",
    ),
]
