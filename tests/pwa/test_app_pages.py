"""The installed app's pages: where it starts, your tables, shortcuts, and the worker's push handlers."""
from __future__ import annotations

import json

import pytest

from games.core.registry import all_games
from pigparlor.tables import services

pytestmark = pytest.mark.django_db


def test_shortcuts_for_your_tables_and_play_now_per_game(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    shortcuts = {item["name"]: item["url"] for item in manifest["shortcuts"]}
    assert shortcuts["Your tables"] == "/your-tables/"
    for game in all_games():
        assert shortcuts[f"Play {game.title} now"] == f"/games/{game.slug}/#quick-play"
    for item in manifest["shortcuts"]:
        assert item["short_name"] and len(item["short_name"]) <= 12 and item["icons"]


def test_the_app_starts_on_your_running_tables(client, count_game, ana, bea):
    assert client.get("/app/")["Location"] == "/", "signed out: the games"
    client.force_login(ana)
    assert client.get("/app/")["Location"] == "/", "no running table: the games"
    services.create_table(host=ana, game="countgame", seats=2, private=True)
    assert client.get("/app/")["Location"] == "/", "an open table is not running yet"
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1)
    assert client.get("/app/")["Location"] == "/your-tables/"
    html = client.get("/your-tables/").content.decode()
    assert "Waiting on you" in html and f'href="/tables/{table.pk}/"' in html
    assert "Waiting for players" in html


def test_your_tables_needs_an_account(client):
    assert client.get("/your-tables/")["Location"].startswith("/accounts/login/")


def test_your_tables_when_there_are_none(client, ana):
    client.force_login(ana)
    assert "You are not at any table right now" in client.get("/your-tables/").content.decode()


def test_pages_carry_install_badge_and_ios_hooks(client, ana):
    html = client.get("/").content.decode()
    assert "data-install hidden" in html and "data-ios-install hidden" in html and "Add to Home Screen" in html
    assert "data-badge=" not in html, "no badge to fetch signed out"
    client.force_login(ana)
    html = client.get("/").content.decode()
    assert 'data-badge="/push/badge/"' in html


def test_the_service_worker_shows_pushes_and_opens_their_page(client):
    body = client.get("/sw.js").content.decode()
    assert 'addEventListener("push"' in body and "showNotification" in body and "setAppBadge" in body
    assert 'addEventListener("notificationclick"' in body and "openWindow" in body and "navigate(target)" in body


def test_socket_scripts_everywhere_but_the_signed_out_home_page(client, ana):
    """Every page may open a socket (the signed-in player socket, live lobbies, tournaments):
    only the home page, signed out, has none and skips parsing ws.js."""
    assert "vendor/ws." not in client.get("/").content.decode()
    for url in ("/games/pigpile/", "/tournaments/", "/accounts/login/"):
        assert "vendor/ws." in client.get(url).content.decode(), url
    client.force_login(ana)
    assert "vendor/ws." in client.get("/").content.decode()
