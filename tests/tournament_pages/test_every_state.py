"""No tournament state makes a page fail: every page that shows tournaments
(the list, each tournament's page for every kind of viewer, its forms, the
profiles, the JSON API, the admin, the sockets' renders) answers without a
500 for tournaments in every status, made through the services, and for
broken ones written straight into the database (no stages, an unknown game,
nonsense numbers, rounds and tables that point nowhere)."""
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pigparlor.api.tokens import create_token
from pigparlor.tables import services as tables
from pigparlor.tournaments import live, services
from pigparlor.tournaments.models import Entry, Result, Round, Stage, Tournament, TournamentTable
from tests.support.tables import make_user
from tests.tournament_pages.helpers import make_tournament, play_out, play_round, start_now

pytestmark = pytest.mark.django_db
CUP = [{"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]
SWISS = [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 2, "advance": 2},
         {"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]


def healthy(viewer) -> list[Tournament]:
    """Tournaments in every status and stage of their life, made through the services."""
    made = []
    rng = random.Random(4)
    far, _ = make_tournament(CUP, players=2, starts_in=timedelta(days=2), name="Far cup", prefix="far")
    made.append(far)
    soon, players = make_tournament(SWISS, players=3, name="Soon cup", prefix="soon")
    services.register(soon.pk, viewer)
    services.check_in(soon.pk, players[0])
    made.append(soon)
    for prefix, stages, count, rounds in (("run", CUP, 4, 0), ("mid", SWISS, 5, 1), ("done", CUP, 4, None),
                                         ("swd", SWISS, 5, None)):
        tournament, players = make_tournament(stages, players=count, name=f"{prefix} cup", prefix=prefix)
        start_now(tournament, players)
        if rounds is None:
            play_out(tournament, rng)
        for _ in range(rounds or 0):
            play_round(tournament, rng)
        made.append(tournament)
    called_off, _ = make_tournament(CUP, players=1, name="Off cup", prefix="off")
    services.cancel_tournament(called_off.pk, "the hall is flooded")
    made.append(called_off)
    too_few, players = make_tournament(CUP, players=3, minimum=3, name="Few cup", prefix="few")
    services.check_in(too_few.pk, players[0])
    Tournament.objects.filter(pk=too_few.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.advance(too_few.pk)
    made.append(too_few)
    return made


def broken(viewer) -> list[Tournament]:
    """Tournaments no service would make, written straight into the database."""
    now = timezone.now()
    made = []

    def tournament(name, **fields):
        found = Tournament.objects.create(name=name, starts_at=fields.pop("starts_at", now + timedelta(hours=1)),
                                          **fields)
        made.append(found)
        return found

    def stage(of, index=0, **fields):
        return Stage.objects.create(tournament=of, index=index, **{
            "game": "countgame", "table_size": 2, "format": "elimination", "advance": 1, **fields})

    for status in ("upcoming", "running", "finished", "cancelled", "paused"):
        bare = tournament(f"No stages {status}", status=status,
                          started_at=None if status == "upcoming" else now)
        Entry.objects.create(tournament=bare, user=viewer, status="in" if status == "running" else "registered")
    stage(tournament("Gone game", status="upcoming"), game="mahjong")
    stage(tournament("Gone game running", status="running", started_at=now), game="mahjong")
    stage(tournament("Swiss without rounds"), format="swiss", rounds=None, advance=None)
    stage(tournament("Zero seats"), table_size=0, advance=None)
    stage(tournament("Odd points"), format="swiss", rounds=2, points=["a", None])
    stage(tournament("Short points"), format="swiss", rounds=2, points=[])
    stage(tournament("Strange format"), format="roundrobin")
    stage(tournament("Second stage only"), index=1)
    tournament("Upside down", min_players=9, max_players=2, min_rating=1800, max_rating=1200)
    tournament("Overdue", starts_at=now - timedelta(days=3))
    # Running with rounds and tables that point nowhere.
    lost = tournament("Lost tables", status="running", started_at=now)
    first = stage(lost)
    entry = Entry.objects.create(tournament=lost, user=viewer, status="in", exit_stage=None)
    Entry.objects.create(tournament=lost, user=make_user("ghost"), status="out")  # out, but never left a round
    round_ = Round.objects.create(tournament=lost, stage=first, index=0)
    TournamentTable.objects.create(round=round_, index=0, players=[viewer.pk, 999_999], bots=0)
    TournamentTable.objects.create(round=round_, index=1, players="nobody", bots=0)
    Result.objects.create(round=round_, entry=entry, place=None, points=0, bye=False)
    # A real table whose game has gone, and one whose state is nonsense.
    for name, game, state in (("Vanished game table", "countgame", None), ("Garbled table", "countgame", {"x": 1})):
        odd = tournament(name, status="running", started_at=now)
        odd_stage = stage(odd)
        Entry.objects.create(tournament=odd, user=viewer, status="in")
        table = tables.create_table(host=None, players=[viewer], game="countgame", seats=2, bots=1,
                                    options={"turn_seconds": 30})
        odd_round = Round.objects.create(tournament=odd, stage=odd_stage, index=0, final=True)
        TournamentTable.objects.create(round=odd_round, index=0, players=[viewer.pk], bots=1, table=table)
        from pigparlor.tables.models import Table
        Table.objects.filter(pk=table.pk).update(game="mahjong" if state is None else game, state=state,
                                                 status="running")
    # Finished without places, without a start, with nobody.
    tournament("Finished empty", status="finished", started_at=now, finished_at=now)
    nameless = tournament("Finished unplaced", status="finished", started_at=None, finished_at=None)
    stage(nameless)
    Entry.objects.create(tournament=nameless, user=viewer, status="in", place=None)
    tournament("Cancelled silently", status="cancelled", cancel_reason="")
    return made


def paths(tournament: Tournament) -> list[tuple[str, str]]:
    detail = reverse("tournaments:detail", args=[tournament.pk])
    return [("get", detail), ("post", f"{detail}register/"), ("post", f"{detail}checkin/"),
            ("post", f"{detail}withdraw/"), ("post", f"{detail}cancel/"), ("get", detail)]


def answers(client: Client, method: str, path: str, **extra) -> int:
    return getattr(client, method)(path, **extra).status_code


@pytest.fixture
def clients(count_game):
    viewer = make_user("viewer")
    staff = make_user("staffer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    anonymous, signed_in, boss = Client(raise_request_exception=False), Client(raise_request_exception=False), \
        Client(raise_request_exception=False)
    signed_in.force_login(viewer)
    boss.force_login(staff)
    return viewer, {"anonymous": anonymous, "player": signed_in, "staff": boss}


def test_every_page_of_every_tournament_in_every_status_answers_without_a_500(clients):
    viewer, by_role = clients
    everything = healthy(viewer) + broken(viewer)
    for tournament in everything:  # the host's own view too
        Tournament.objects.filter(pk=tournament.pk, created_by__isnull=True).update(created_by=viewer)
    token = {"HTTP_AUTHORIZATION": f"Bearer {create_token(viewer)}"}
    failures = []
    for role, client in by_role.items():
        for path in ("/tournaments/", "/tournaments/new/", "/profile/", f"/players/{viewer.username}/"):
            status = answers(client, "get", path)
            if status >= 500:
                failures.append((role, path, status))
        for tournament in everything:
            for method, path in paths(tournament):
                status = answers(client, method, path)
                if status >= 500:
                    failures.append((role, tournament.name, method, path, status))
            status = answers(client, "post", reverse("tournaments:register", args=[tournament.pk]),
                             headers={"HX-Request": "true"})
            if status >= 500:
                failures.append((role, tournament.name, "htmx register", status))
    staff = by_role["staff"]
    for tournament in everything:
        for path in (f"/admin/tournaments/tournament/{tournament.pk}/change/",
                     f"/api/tournaments/{tournament.pk}/", f"/api/tournaments/{tournament.pk}/me/"):
            status = answers(staff if path.startswith("/admin/") else Client(raise_request_exception=False),
                             "get", path, **({} if path.startswith("/admin/") else token))
            if status >= 500:
                failures.append(("staff/api", tournament.name, path, status))
        tournament.refresh_from_db()
        for render in (lambda: live.board_html(tournament), lambda: live.me_html(tournament, viewer),  # noqa: B023
                       lambda: live.banner_html(viewer)):
            try:
                render()
            except Exception as error:  # noqa: BLE001 — collected, reported below
                failures.append(("socket render", tournament.name, repr(error)))
    for path in ("/admin/tournaments/tournament/", "/api/tournaments/"):
        client = staff if path.startswith("/admin/") else Client(raise_request_exception=False)
        status = answers(client, "get", path, **({} if path.startswith("/admin/") else token))
        if status >= 500:
            failures.append(("list", path, status))
    try:
        live.list_html()
    except Exception as error:  # noqa: BLE001
        failures.append(("socket render", "list", repr(error)))
    assert not failures, "\n".join(map(str, failures))


def test_the_clock_cancels_a_due_tournament_it_cannot_play_and_carries_on(clients):
    """A stage-less or unplayable tournament that comes due is called off with a
    reason its players see, instead of failing the clock on every pass."""
    viewer, _ = clients
    now = timezone.now()
    bare = Tournament.objects.create(name="Bare", starts_at=now - timedelta(seconds=1))
    gone = Tournament.objects.create(name="Gone", starts_at=now - timedelta(seconds=1))
    Stage.objects.create(tournament=gone, index=0, game="mahjong", table_size=2, format="elimination", advance=1)
    for tournament in (bare, gone):
        Entry.objects.create(tournament=tournament, user=viewer, status="checked_in")
        Entry.objects.create(tournament=tournament, user=make_user(f"other{tournament.pk}"), status="checked_in")
    from pigparlor.tables.timing import epoch_ms
    from pigparlor.tournaments.ticks import on_clock_tick

    on_clock_tick(None, now_ms=epoch_ms())
    bare.refresh_from_db()
    gone.refresh_from_db()
    assert (bare.status, bare.cancel_reason) == ("cancelled", "it has no stages to play")
    assert gone.status == "cancelled" and "mahjong" in gone.cancel_reason
