"""The yardstick the move API is measured against: a bare DRF view that locks a row,
updates it and inserts one row, in one transaction, on the same server and database.

Its requests per second, taken on the same machine minutes apart from the moves, say
how much of a move request's cost is the request itself and how much is the game.
"""

from django.db import connection, transaction
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.front.views import healthz


class CounterView(APIView):
    def post(self, request: Request) -> Response:
        row = request.data["row"]
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT n FROM bench_counter WHERE id = %s FOR UPDATE", [row])
            n = cursor.fetchone()[0] + 1
            cursor.execute("UPDATE bench_counter SET n = %s WHERE id = %s", [n, row])
            cursor.execute("INSERT INTO bench_log (counter, n) VALUES (%s, %s)", [row, n])
        return Response({"row": row, "n": n})


urlpatterns = [
    path("api/v1/reference", CounterView.as_view()),
    path("healthz", healthz),  # the benchmark waits for it
]
