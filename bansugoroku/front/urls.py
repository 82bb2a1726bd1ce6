from django.urls import path

from bansugoroku.front import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("t/<str:code>", views.invite, name="invite"),
    path(".well-known/assetlinks.json", views.assetlinks, name="assetlinks"),
    path(
        ".well-known/apple-app-site-association",
        views.apple_app_site_association,
        name="apple-app-site-association",
    ),
]
