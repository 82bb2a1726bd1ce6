"""`manage.py review_games`: review here every ended game that has no review yet.

The worker reviews each game as it ends, and beat queues again a review lost within a
day (`reviews.lost_reviews`). Games that ended before reviews existed, or whose review
was lost longer ago, have none until this runs: once after deploying the release that
brought reviews, and after any longer outage of the workers. Each game is stored as the
worker stores it (`reviews.store_review`), so running it twice, or beside a worker, does
no harm.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bansugoroku.games import reviews


class Command(BaseCommand):
    help = "Review every ended game without a review (a second or so each)."

    def handle(self, *args: Any, **options: Any) -> None:
        waiting = list(reviews.unreviewed().order_by("-ended_at").values_list("pk", flat=True))
        stored = sum(reviews.store_review(game_id) for game_id in waiting)
        self.stdout.write(f"{stored} of {len(waiting)} games reviewed")
