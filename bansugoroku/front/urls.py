from django.urls import path

from bansugoroku.front import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("t/<str:code>", views.invite, name="invite"),
]
