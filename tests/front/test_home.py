import pytest
from django.db import DatabaseError


@pytest.mark.django_db
def test_home_page(client):
    response = client.get("/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    content = response.content.decode()
    assert "<title>Ban-sugoroku</title>" in content
    assert 'data-test="play-friend"' in content and 'data-test="play-cpu"' in content


@pytest.mark.django_db
def test_healthz_queries_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_healthz_reports_database_failure(client, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise DatabaseError("down")

    monkeypatch.setattr("bansugoroku.front.views.connection.cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}


@pytest.mark.django_db
def test_an_invitation_link_shows_the_host_and_the_code(client):
    from tests.factories import TableFactory

    table = TableFactory(host__name="Aiko")
    page = client.get(f"/t/{table.code.lower()}")
    assert page.status_code == 200
    assert "Aiko invites you" in page.content.decode() and table.code in page.content.decode()
    missing = client.get("/t/%00%00")
    assert missing.status_code == 404 and "No table has the code" in missing.content.decode()


@pytest.mark.django_db
def test_invitation_pages_count_as_join_guesses(client, monkeypatch):
    """The page tells a real code from a guess, so it shares the join limit per address."""
    from bansugoroku.limits.throttles import JoinCodeThrottle, WindowThrottle
    from tests.client import Api

    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "5/min"})
    monkeypatch.setattr(WindowThrottle, "timer", lambda self: 6000.0 + 15)
    joins = [Api().new_player(f"G{i}").post("tables/ABCDEF/join") for i in range(2)]
    assert [j.status for j in joins] == [404, 404]
    pages = [client.get(f"/t/ABCDE{c}") for c in "FGHJK"]
    assert [p.status_code for p in pages] == [404, 404, 404, 429, 429]
    assert pages[-1]["Retry-After"] == "45"
    assert "Too many table codes" in pages[-1].content.decode()
    assert Api().new_player("G9").post("tables/ABCDEF/join").status == 429, "shared count"
