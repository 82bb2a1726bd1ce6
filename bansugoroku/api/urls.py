from django.urls import path, re_path

from bansugoroku.api import (
    event_views,
    history_views,
    lobby_views,
    message_views,
    notice_views,
    profile_views,
    push_views,
    quiet_hours_views,
    vacation_views,
    views,
)

CODE = "tables/<str:code>"

urlpatterns = [
    path("players", views.PlayersView.as_view(), name="players"),
    path("players/me", views.MeView.as_view(), name="me"),
    path("players/<int:player_id>", profile_views.PlayerPageView.as_view(), name="player"),
    path("players/<int:player_id>/block", profile_views.BlockView.as_view(), name="block"),
    path(
        "players/<int:player_id>/games/<str:code>/<int:number>",
        profile_views.PublicGameView.as_view(),
        name="player-game",
    ),
    path("players/me/notices", notice_views.NoticePreferencesView.as_view(), name="notices"),
    path("players/me/vacation", vacation_views.VacationView.as_view(), name="vacation"),
    path(
        "players/me/quiet-hours",
        quiet_hours_views.QuietHoursView.as_view(),
        name="quiet-hours",
    ),
    path("players/me/email/confirm", notice_views.EmailConfirmView.as_view(), name="email-confirm"),
    path("sign-in", notice_views.SignInView.as_view(), name="sign-in"),
    path("unsubscribe/<secret:token>", notice_views.UnsubscribeView.as_view(), name="unsubscribe"),
    path("tables", views.TablesView.as_view(), name="tables"),
    path(CODE, views.TableView.as_view(), name="table"),
    path(f"{CODE}/join", views.JoinView.as_view(), name="join"),
    path(f"{CODE}/start", views.StartView.as_view(), name="start"),
    path(f"{CODE}/moves", views.MovesView.as_view(), name="moves"),
    path(f"{CODE}/undo", views.UndoView.as_view(), name="undo"),
    path(f"{CODE}/play-again", views.PlayAgainView.as_view(), name="play-again"),
    path(f"{CODE}/resign", views.ResignView.as_view(), name="resign"),
    path(f"{CODE}/leave", views.LeaveView.as_view(), name="leave"),
    path(f"{CODE}/entropy", views.EntropyView.as_view(), name="entropy"),
    path(f"{CODE}/open", lobby_views.OpenView.as_view(), name="open"),
    path(f"{CODE}/messages", message_views.MessagesView.as_view(), name="messages"),
    path(
        f"{CODE}/messages/<int:message_id>/report",
        message_views.ReportView.as_view(),
        name="message-report",
    ),
    path(f"{CODE}/mute", message_views.MuteView.as_view(), name="mute"),
    path("lobby", lobby_views.LobbyView.as_view(), name="lobby"),
    path("lobby/quick-pairing", lobby_views.QuickPairingView.as_view(), name="quick-pairing"),
    path("lobby/<str:code>/take", lobby_views.TakeView.as_view(), name="take"),
    path(f"{CODE}/events", event_views.EventsView.as_view(), name="events"),
    path(f"{CODE}/games", history_views.GamesView.as_view(), name="games"),
    path(f"{CODE}/games/<int:number>", history_views.GameView.as_view(), name="game"),
    path(
        f"{CODE}/games/<int:number>/export.json",
        history_views.ExportJsonView.as_view(),
        name="game-export-json",
    ),
    path(
        f"{CODE}/games/<int:number>/export.mat",
        history_views.ExportMatView.as_view(),
        name="game-export-mat",
    ),
    path(f"{CODE}/games/<int:number>/dice", history_views.DiceView.as_view(), name="game-dice"),
    path(
        f"{CODE}/games/<int:number>/review",
        history_views.ReviewView.as_view(),
        name="game-review",
    ),
    path("push/vapid-public-key", push_views.VapidKeyView.as_view(), name="vapid-public-key"),
    path(
        "players/me/push-subscriptions",
        push_views.PushSubscriptionsView.as_view(),
        name="push-subscriptions",
    ),
    path(
        "players/me/push-subscriptions/<int:subscription_id>",
        push_views.PushSubscriptionView.as_view(),
        name="push-subscription",
    ),
    path("players/me/devices", push_views.DevicesView.as_view(), name="devices"),
    path("problems", views.ProblemsView.as_view(), name="problems"),
    path("problems/<str:code>", views.ProblemView.as_view(), name="problem"),
    re_path(r"", views.NoSuchEndpointView.as_view()),  # last: any other path under /api/v1/
]
