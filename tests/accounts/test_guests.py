"""Guests: a visitor's "Play" tap makes a guest, "Guest ####", who plays against bots at
once; guests stay out of rated tables, tables of people only, quick play, leaderboards,
tournaments, API tokens, push notifications, chat and reports, each with a clear reason;
one address makes only so many; a guest's sign-up keeps their games; stale guests expire."""
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.core.registry import get_game
from pigparlor.accounts import guests
from pigparlor.accounts.history import finished_tables
from pigparlor.accounts.models import Guest
from pigparlor.api.models import ApiToken
from pigparlor.api.tokens import create_token, digest, user_for_token
from pigparlor.lobby import pool
from pigparlor.moderation import chat, reports
from pigparlor.moderation.models import Report
from pigparlor.pwa import invites, subscriptions
from pigparlor.ratings import queries
from pigparlor.ratings.models import Rating
from pigparlor.tables import services
from pigparlor.tables.errors import FORBIDDEN, RATE_LIMITED, TableError
from pigparlor.tables.models import FINISHED, OPEN, RUNNING, Seat, Table
from pigparlor.tournaments import services as tournaments
from tests.accounts.test_accounts import PASSWORD
from tests.support.tables import step_clock

pytestmark = pytest.mark.django_db
GAMES = ("oink", "pigpile", "piggypiggy", "snout")


@pytest.fixture(autouse=True)
def _no_sign_up_rate_limit():
    """allauth counts sign-ups per address in the cache; these tests sign up several times."""
    cache.clear()


def play(client, slug="snout", address="203.0.113.7", **data):
    return client.post(reverse("lobby:play", args=[slug]), data, REMOTE_ADDR=address)


def guest_of(client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def notes(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def guest(client):
    play(client)
    return guest_of(client)


def table_of(user) -> Table:
    return Table.objects.filter(seat_set__user=user).latest("pk")


# -- playing at once -------------------------------------------------------------------

@pytest.mark.parametrize("slug", GAMES)
def test_a_visitors_play_tap_deals_a_casual_game_against_easy_bots_as_a_new_guest(client, slug):
    response = play(client, slug)
    user = guest_of(client)
    table = table_of(user)
    assert re.fullmatch(r"Guest \d{4}", user.username) and not user.has_usable_password()
    assert guests.is_guest(user)
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    game = get_game(slug)
    assert table.status == RUNNING and not table.rated
    assert table.seats == pool.default_seats(game)
    kinds = list(table.seat_set.order_by("index").values_list("bot_kind", flat=True))
    assert kinds == [""] + [game.bot_levels[0]] * (table.seats - 1)


def test_a_guest_plays_again_as_the_same_guest_and_may_choose_the_seats(client, guest):
    play(client, "oink", seats="2")
    assert guest_of(client) == guest and Guest.objects.count() == 1
    assert table_of(guest).seats == 2 and table_of(guest).game == "oink"
    response = play(client, "oink", seats="9")
    assert response["Location"] == reverse("lobby:game", args=["oink"])
    assert notes(response) == ["Oink! is for 2–6 players"]


def test_the_lobby_and_home_page_offer_a_visitor_play_not_log_in(client):
    lobby = client.get(reverse("lobby:game", args=["pigpile"])).content.decode()
    assert "Log in to play now" not in lobby
    assert f'action="{reverse("lobby:play", args=["pigpile"])}"' in lobby and 'id="play-now"' in lobby
    assert 'id="quick-play-status"' in lobby  # the lobby socket's status part has its place
    home = client.get(reverse("home")).content.decode()
    assert all(f'action="{reverse("lobby:play", args=[slug])}"' in home for slug in GAMES)


def test_a_guest_sees_play_now_and_the_create_form_without_the_casual_box(client, guest):
    lobby = client.get(reverse("lobby:game", args=["snout"])).content.decode()
    assert 'id="play-now"' in lobby and 'name="pool_wait"' not in lobby
    assert 'name="casual"' not in lobby and "Guests' tables are casual" in lobby
    page = client.get(reverse("table", args=[table_of(guest).pk])).content.decode()
    assert "You are playing as a guest" in page
    header = client.get(reverse("home")).content.decode()
    assert guest.username in header and "Log out" not in header


def test_a_guest_makes_a_casual_table_with_the_create_form(client, guest):
    response = client.post(reverse("lobby:create", args=["snout"]), {"seats": "3", "bots": "2", "bot_level": "easy",
                                                                      "opt_toss_odds": "kern", "opt_turn_seconds": "30"})
    table = Table.objects.filter(host=guest).latest("pk")
    assert response.status_code == 302 and table.status == RUNNING and not table.rated


def test_quick_play_waits_ten_seconds_for_people_by_default(settings):
    snout = get_game("snout")
    assert pool.parse_request(snout, "4", "").wait_s == 10
    assert pool.pool_context(snout)["default_wait"] == 10
    settings.PIGPARLOR_QUICK_PLAY_WAIT_S = 20
    assert pool.parse_request(snout, "4", "").wait_s == 20 and 20 in pool.wait_choices()


# -- what guests are refused -----------------------------------------------------------

def test_a_guest_is_refused_by_a_rated_table(client, guest, ana):
    rated = services.create_table(host=ana, game="snout", seats=3, bots=1)
    assert rated.rated
    with pytest.raises(TableError) as refused:
        services.join_table(rated, guest)
    assert refused.value.code == FORBIDDEN and "rated tables are for signed-up players" in refused.value.message
    response = client.post(reverse("lobby:join", args=[rated.pk]))
    assert "rated tables are for signed-up players" in notes(response)[0]
    assert not Seat.objects.filter(table=rated, user=guest).exists()
    with pytest.raises(TableError, match="rated tables"):
        services.create_table(host=guest, game="snout", seats=3, bots=2, rated=True)


def test_a_guest_is_refused_by_a_table_of_people_only(guest, ana):
    people_only = services.create_table(host=ana, game="snout", seats=3, rated=False)
    with pytest.raises(TableError) as refused:
        services.join_table(people_only, guest)
    assert refused.value.code == FORBIDDEN and "tables of people only" in refused.value.message
    with pytest.raises(TableError, match="at least one bot"):
        services.create_table(host=guest, game="snout", seats=3, rated=False)
    assert not Table.objects.filter(host=guest, status=OPEN).exists()


def test_a_guest_joins_a_casual_table_that_has_a_bot(guest, ana):
    with_a_bot = services.create_table(host=ana, game="snout", seats=3, bots=1, rated=False)
    assert services.join_table(with_a_bot, guest) == 1


def test_a_guest_plays_at_two_tables_at_most(client, guest, settings):
    assert settings.PIGPARLOR_GUEST_MAX_TABLES == 2
    play(client)
    response = play(client)
    assert Table.objects.filter(seat_set__user=guest, status=RUNNING).count() == 2
    assert "a guest plays at most 2 tables at a time" in notes(response)[0]
    with pytest.raises(TableError) as refused:
        services.create_table(host=guest, game="snout", seats=2, bots=1, rated=False)
    assert refused.value.code == RATE_LIMITED


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_quick_play_refuses_a_guest_who_still_plays_bots_at_once():
    import json

    from asgiref.sync import sync_to_async

    from pigparlor.lobby.models import PoolEntry
    from tests.lobby.test_quick_play import open_lobby
    from tests.support.sockets import until

    guest = await sync_to_async(guests.create_guest)("203.0.113.8")
    socket = await open_lobby(guest)
    await socket.send_to(text_data=json.dumps({"pool": "join", "pool_seats": "4", "pool_wait": "10"}))
    await until(socket, lambda frames: any("quick play seats you at a rated table" in f for f in frames))
    await socket.disconnect()
    assert not await sync_to_async(PoolEntry.objects.exists)()


def test_leaderboards_never_list_a_guest(guest, ana):
    for user in (guest, ana):
        Rating.objects.create(user=user, game="snout", mu=30, sigma=1, games=40)
    assert [placed.row.user for placed in queries.leaderboard("snout")] == [ana]


def test_a_guest_cannot_enter_a_tournament(client, guest):
    from tests.tournaments.helpers import make_tournament

    tournament, _ = make_tournament([{"game": "snout", "table_size": 4, "format": "swiss", "rounds": 1}])
    with pytest.raises(TableError) as refused:
        tournaments.register(tournament.pk, guest)
    assert refused.value.code == FORBIDDEN and "tournaments are for signed-up players" in refused.value.message
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "tournaments are for signed-up players" in page


def test_a_guest_gets_no_api_token_by_any_door(client, guest):
    with pytest.raises(TableError, match="API tokens are for signed-up players"):
        create_token(guest)
    response = client.post(reverse("accounts:create_token"))
    assert "API tokens are for signed-up players" in notes(response)[0]
    with pytest.raises(Exception, match="API tokens are for signed-up players"):
        call_command("api_token", guest.username)
    assert not ApiToken.objects.filter(user=guest).exists()
    raw = "pp_madebyhandforaguest"  # one that reached the database anyway opens nothing
    ApiToken.objects.create(user=guest, prefix=raw[:10], digest=digest(raw))
    assert user_for_token(raw) is None
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert "Create a token" not in profile and "Playing as a guest" in profile


def test_a_guest_gets_no_push_subscription_or_invitations_by_name(client, guest, ana):
    with pytest.raises(TableError, match="notifications are for signed-up players"):
        subscriptions.subscribe(guest, "https://push.example.com/x", {"p256dh": "x", "auth": "y"})
    response = client.post(reverse("pwa:push_subscribe"), b'{"endpoint": "https://push.example.com/x", '
                           b'"keys": {"p256dh": "x", "auth": "y"}}', content_type="application/json")
    assert response.status_code == 403 and response.json()["code"] == FORBIDDEN
    private = services.create_table(host=guest, game="snout", seats=3, bots=1, private=True)
    with pytest.raises(TableError, match="inviting players by name is for signed-up players"):
        invites.invite_player(private.pk, guest, "ana")


def test_a_guest_reads_the_chat_but_cannot_write_or_report(client, guest, ana):
    room = chat.lobby_room("snout")
    with pytest.raises(TableError, match="guests can read the chat"):
        chat.post_chat(guest, room, "hello")
    with pytest.raises(TableError, match="reports are for signed-up players"):
        reports.file_report(guest, room, "ana", "abuse")
    assert not Report.objects.exists()
    lobby = client.get(reverse("lobby:game", args=["snout"])).content.decode()
    assert "Guests can read the chat: sign up to write in it." in lobby and 'id="chat-form"' not in lobby
    assert "sign up to report someone" in lobby and 'name="reason"' not in lobby


def test_guest_is_a_reserved_word_for_names(client):
    response = client.post(reverse("account_signup"), {"username": "Guest_1234", "password1": PASSWORD,
                                                       "password2": PASSWORD})
    assert response.status_code == 200 and "reserved for the site" in response.content.decode()


# -- one address, many guests ------------------------------------------------------------

def test_one_address_makes_only_so_many_guests_an_hour(client_factory, settings):
    settings.PIGPARLOR_GUESTS_PER_ADDRESS = 2
    for _ in range(2):
        play(client_factory(), address="198.51.100.4")
    response = play(client_factory(), address="198.51.100.4")
    assert "too many guests were made from your network" in notes(response)[0]
    assert Guest.objects.count() == 2
    play(client_factory(), address="198.51.100.5")
    assert Guest.objects.count() == 3
    for address in ("2001:db8::1", "2001:db8::2"):  # an IPv6 /64 is one network
        play(client_factory(), address=address)
    refused = play(client_factory(), address="2001:db8::ffff:1")
    assert "too many guests" in notes(refused)[0] and Guest.objects.count() == 5
    with pytest.raises(TableError) as limited:
        guests.create_guest("198.51.100.4")
    assert limited.value.code == RATE_LIMITED and limited.value.retry_after_s > 3000


def test_a_guest_row_keeps_no_address():
    guests.create_guest("192.0.2.99")
    row = Guest.objects.get()
    assert "192.0.2" not in row.address and len(row.address) == 64
    assert guests.network("::ffff:192.0.2.99") == "192.0.2.99"
    assert guests.network("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"


@pytest.fixture
def client_factory():
    from django.test import Client

    return Client


# -- signing up from a guest ---------------------------------------------------------------

def finish(table) -> None:
    """The guest goes; a bot plays their seat and the clock runs the table to its end."""
    for seat in table.seat_set.exclude(user=None):
        services.leave_table(table, seat.user)
    while step_clock(table.pk):
        pass
    table.refresh_from_db()
    assert table.status == FINISHED


def test_a_guests_sign_up_keeps_their_finished_games_and_their_seat(client, guest):
    first = table_of(guest)
    finish(first)
    play(client, "oink", seats="2")
    running = table_of(guest)
    page = client.get(reverse("account_signup"))
    assert page.status_code == 200 and guest.username in page.content.decode()
    assert "Forgot your password?" in page.content.decode()  # and why an email helps
    response = client.post(reverse("account_signup"), {"username": "newpig", "password1": PASSWORD,
                                                       "password2": PASSWORD})
    assert response.status_code == 302
    account = get_user_model().objects.get(username="newpig")
    assert account.pk == guest.pk and account.check_password(PASSWORD)
    assert not guests.is_guest(account) and not Guest.objects.exists()
    assert [row.table for row in finished_tables(account, account)] == [first]
    assert Seat.objects.filter(table=running, user=account).exists()
    assert int(client.session["_auth_user_id"]) == account.pk
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert "Create a token" in profile and first.display_title in profile
    client.post(reverse("account_logout"))
    client.post(reverse("account_login"), {"login": "newpig", "password": PASSWORD})
    assert int(client.session["_auth_user_id"]) == account.pk


def test_a_sign_up_for_a_guest_who_signed_up_meanwhile_makes_a_separate_account(rf, guest):
    """Two tabs of one guest send the sign-up form at once: the first turns the guest into
    its account, the second (which read the guest before that) gets an account of its own."""
    from allauth.account.forms import SignupForm

    from pigparlor.accounts.adapter import AccountAdapter

    request = rf.post(reverse("account_signup"))
    request.user, request.session = guest, {}
    form = SignupForm(data={"username": "second", "password1": PASSWORD, "password2": PASSWORD})
    assert form.is_valid(), form.errors
    guests.become_full_account(guest)  # the other tab won
    saved = AccountAdapter(request).save_user(request, guest, form)
    assert saved.pk != guest.pk and saved.username == "second"
    guest.refresh_from_db()
    assert guest.username.startswith("Guest ")


def test_log_in_and_sign_up_pages_send_a_signed_in_player_on(client, ana):
    client.force_login(ana)
    assert client.get(reverse("account_signup"))["Location"] == "/"
    assert client.get(reverse("account_login") + "?next=/games/snout/")["Location"] == "/games/snout/"


def test_a_guest_may_log_in_to_an_account_and_is_told_what_stays_behind(client, guest, ana):
    page = client.get(reverse("account_login")).content.decode()
    assert "leaves the guest's games behind" in page
    client.post(reverse("account_login"), {"login": "ana", "password": PASSWORD})
    assert int(client.session["_auth_user_id"]) == ana.pk


# -- expiry ----------------------------------------------------------------------------

def test_stale_guests_expire_and_the_ones_still_playing_stay(client_factory, settings, ana):
    settings.PIGPARLOR_GUEST_EXPIRY_DAYS = 14
    made = []
    for n in range(4):
        player = client_factory()
        play(player, address=f"192.0.2.{n}")
        made.append(guest_of(player))
    stale, finished, playing, reported = made
    stale_table = table_of(stale)
    long_ago = timezone.now() - timedelta(days=15)
    Guest.objects.update(created_at=long_ago)
    Table.objects.filter(seat_set__user__in=[stale, finished, reported]).update(created_at=long_ago, status=FINISHED)
    Report.objects.create(reporter=ana, target=reported, reason="abuse", room="lobby:snout")
    Table.objects.filter(seat_set__user=finished).update(created_at=timezone.now() - timedelta(days=3))

    assert set(guests.stale_guests().values_list("user_id", flat=True)) == {stale.pk}
    call_command("expire_guests")
    kept = set(get_user_model().objects.values_list("pk", flat=True))
    assert stale.pk not in kept and {finished.pk, playing.pk, reported.pk} <= kept
    # The stale guest's finished table is still there, their seat empty.
    assert Table.objects.get(pk=stale_table.pk).seat_set.get(index=0).user is None
    assert guests.expire_guests() == 0
