"""Who a seat is rated as: its human, or the account of its bot policy.

Bot accounts are made on first need. Their usernames, ``bot:<kind>``, hold a
colon, which sign-up refuses, so no person can take one first.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.core.registry import all_games
from pigparlor.accounts.models import Profile
from pigparlor.ratings.models import BotAccount

BOT_PREFIX = "bot:"


def bot_username(kind: str) -> str:
    return f"{BOT_PREFIX}{kind}"


def bot_display_name(kind: str) -> str:
    return f"{kind.capitalize()} bot"


def is_bot_username(username: str) -> bool:
    return username.startswith(BOT_PREFIX)


def bot_account(kind: str):
    """The user a bot policy plays as, made the first time it is needed."""
    found = BotAccount.objects.filter(kind=kind).select_related("user").first()
    if found is not None:
        return found.user
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=bot_username(kind))
            user.set_unusable_password()
            user.save(update_fields=["password"])
            Profile.objects.create(user=user, display_name=bot_display_name(kind))
            BotAccount.objects.create(kind=kind, user=user)
            return user
    except IntegrityError:  # another process made it first
        return BotAccount.objects.select_related("user").get(kind=kind).user


def player_named(username: str):
    """The user a player's page shows: anyone's account, or a bot level's (made on
    first need, so a level's page exists before it plays rated). None: no such player."""
    found = get_user_model().objects.filter(username=username).first()
    if found is None and is_bot_username(username):
        kind = username.removeprefix(BOT_PREFIX)
        if any(kind in game.bots for game in all_games()):
            return bot_account(kind)
    return found


def seat_username(seat) -> str | None:
    """The username a seat plays under (bots: their bot account), without a query
    beyond the seat's loaded user."""
    if seat.user_id is not None:
        return seat.user.get_username()
    if seat.bot_kind:
        return bot_username(seat.bot_kind)
    return None


def seat_account(seat):
    """The user rated for a seat: its human (even when a bot stood in), else its bot's account."""
    if seat.user_id is not None:
        return seat.user
    if seat.bot_kind:
        return bot_account(seat.bot_kind)
    return None
