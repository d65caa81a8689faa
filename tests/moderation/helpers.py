"""Helpers for the moderation tests: moderators, tables, and chat frames."""
from __future__ import annotations

import json

from django.contrib.auth.models import Group, Permission

from pigparlor.moderation.permissions import GROUP, PERMISSIONS
from pigparlor.tables import services
from tests.support.mfa import enrol
from tests.support.tables import make_user


def make_moderator(name: str = "mod", two_factor: bool = True):
    """A moderator; with an authenticator app unless ``two_factor=False`` (the admin wants one)."""
    user = make_user(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderator_group())
    if two_factor:
        enrol(user)
    return user


def moderator_group() -> Group:
    """The group migration 0002 made; a transactional test's flush empties the
    tables, so it is made again the same way there."""
    group, created = Group.objects.get_or_create(name=GROUP)
    if created:
        group.permissions.set(Permission.objects.filter(content_type__app_label="moderation", codename__in=PERMISSIONS))
    return group


def two_player_table(names=("ana", "ben"), **kwargs):
    """A running two-seat count-game table (needs the ``count_game`` fixture)."""
    ana, ben = make_user(names[0]), make_user(names[1])
    table = services.create_table(host=ana, game="countgame", seats=2, **kwargs)
    services.join_table(table, ben)
    return ana, ben, table.pk


def chat_frames(frames: list[str]) -> list[dict]:
    return [frame for frame in map(json.loads, frames) if frame["type"] == "chat"]


def error_frames(frames: list[str]) -> list[dict]:
    return [frame for frame in map(json.loads, frames) if frame["type"] == "error"]
