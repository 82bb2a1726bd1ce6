from django.urls import path, re_path

from bansugoroku.api import views

CODE = "tables/<str:code>"

urlpatterns = [
    path("players", views.PlayersView.as_view(), name="players"),
    path("players/me", views.MeView.as_view(), name="me"),
    path("tables", views.TablesView.as_view(), name="tables"),
    path(CODE, views.TableView.as_view(), name="table"),
    path(f"{CODE}/join", views.JoinView.as_view(), name="join"),
    path(f"{CODE}/start", views.StartView.as_view(), name="start"),
    path(f"{CODE}/moves", views.MovesView.as_view(), name="moves"),
    path(f"{CODE}/undo", views.UndoView.as_view(), name="undo"),
    path(f"{CODE}/play-again", views.PlayAgainView.as_view(), name="play-again"),
    path(f"{CODE}/resign", views.ResignView.as_view(), name="resign"),
    path("problems/<str:code>", views.ProblemView.as_view(), name="problem"),
    re_path(r"", views.NoSuchEndpointView.as_view()),  # last: any other path under /api/v1/
]
