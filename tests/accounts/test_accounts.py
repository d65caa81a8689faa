"""Accounts: sign-up, log-in, log-out, password change, the profile page and API tokens."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pigparlor.accounts.models import Profile, display_name
from pigparlor.api.models import ApiToken
from pigparlor.api.tokens import user_for_token
from pigparlor.tables.models import RUNNING, Table
from tests.support.tables import PASSWORD, finished_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana_client(client, ana):
    client.force_login(ana)
    return client


def test_signup_needs_only_username_and_password(client):
    response = client.post(reverse("account_signup"), {"username": "bea", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    user = get_user_model().objects.get(username="bea")
    assert user.email == ""
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_login_and_logout(client, ana):
    response = client.post(reverse("account_login"), {"login": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200
    client.post(reverse("account_logout"))
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_wrong_password_is_refused(client, ana):
    response = client.post(reverse("account_login"), {"login": "ana", "password": "not-it"})
    assert response.status_code == 200
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_change_password(ana_client, ana):
    response = ana_client.post(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": "a-new-pig-pass-9", "password2": "a-new-pig-pass-9"})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.check_password("a-new-pig-pass-9")


def test_account_pages_use_the_site_layout(client):
    for name in ("account_login", "account_signup"):
        html = client.get(reverse(name)).content.decode()
        assert 'rel="manifest"' in html and 'class="site-header"' in html


def test_profile_needs_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_display_name_is_saved_and_used(ana_client, ana):
    response = ana_client.post(reverse("accounts:profile"), {"display_name": "  Ana   the Pig "})
    assert response.status_code == 302
    assert Profile.objects.get(user=ana).display_name == "Ana the Pig"
    assert display_name(ana) == "Ana the Pig"


def test_display_name_falls_back_to_username(ana):
    assert display_name(ana) == "ana"


def test_display_name_is_escaped(ana_client, ana):
    ana_client.post(reverse("accounts:profile"), {"display_name": "<b>pig</b>"})
    html = ana_client.get(reverse("accounts:profile")).content.decode()
    assert "<b>pig</b>" not in html and "&lt;b&gt;pig&lt;/b&gt;" in html


def test_profile_counts_games_per_game_and_lists_finished_tables(ana_client, ana, django_user_model):
    bea = django_user_model.objects.create_user("bea", password=PASSWORD)
    finished_table([ana, bea, None], [1, 2, 3], game="pigpile", scores=[9, 5, 2], rated=False, title="Sunday swill")
    finished_table([bea, ana, None], [1, 3, 2], game="pigpile", scores=[8, 1, 4], rated=False)
    finished_table([None, ana], [1, 2], game="snout", scores=[100, 40], rated=False)
    Table.objects.create(game="pigpile", seats=3, seed=1, status=RUNNING)

    response = ana_client.get(reverse("accounts:profile"))
    tallies = {row.slug: (row.played, row.won) for row in response.context["tallies"]}
    assert tallies == {"pigpile": (2, 1), "snout": (1, 0)}
    history = response.context["history"]
    assert len(history) == 3
    first = next(row for row in history if row.table.title == "Sunday swill")
    assert (first.rank, first.score, first.won) == (1, 9, True)
    html = response.content.decode()
    assert "Sunday swill" in html and "Pig Pile" in html and "3 of 3" in html


def test_table_titles_in_history_are_escaped(ana_client, ana):
    finished_table([ana, None, None], [1, 2, 3], game="pigpile", scores=[1, 0, 0], rated=False, title="<script>oink()</script>")
    html = ana_client.get(reverse("accounts:profile")).content.decode()
    assert "<script>oink()" not in html and "&lt;script&gt;oink()" in html


def test_create_token_shows_it_once_and_stores_only_a_hash(ana_client, ana):
    response = ana_client.post(reverse("accounts:create_token"))
    raw = response.context["new_token"]
    assert raw and raw in response.content.decode()
    token = ApiToken.objects.get(user=ana)
    assert raw not in (token.digest, token.prefix)
    assert user_for_token(raw) == ana
    again = ana_client.get(reverse("accounts:profile")).content.decode()
    assert raw not in again and token.prefix in again


def test_revoke_token(ana_client, ana):
    raw = ana_client.post(reverse("accounts:create_token")).context["new_token"]
    token = ApiToken.objects.get(user=ana)
    response = ana_client.post(reverse("accounts:revoke_token", args=[token.pk]))
    assert response.status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    assert user_for_token(raw) is None


def test_cannot_revoke_someone_elses_token(ana_client, django_user_model):
    from pigparlor.api.tokens import create_token

    bea = django_user_model.objects.create_user("bea", password=PASSWORD)
    create_token(bea)
    token = ApiToken.objects.get(user=bea)
    ana_client.post(reverse("accounts:revoke_token", args=[token.pk]))
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_token_forms_need_post_and_csrf(ana, django_user_model):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ana)
    assert strict.get(reverse("accounts:create_token")).status_code == 405
    assert strict.post(reverse("accounts:create_token")).status_code == 403
    assert not ApiToken.objects.exists()


def test_public_player_page_shows_the_record_but_no_tokens(client, ana, django_user_model):
    from pigparlor.api.tokens import create_token

    create_token(ana)
    finished_table([ana, None], [1, 2], game="snout", scores=[100, 20], rated=False)
    bea = django_user_model.objects.create_user("bea", password=PASSWORD)
    client.force_login(bea)
    html = client.get(reverse("accounts:player", args=["ana"])).content.decode()
    assert "Snout" in html and "API tokens" not in html
    assert client.get(reverse("accounts:player", args=["nobody"])).status_code == 404
