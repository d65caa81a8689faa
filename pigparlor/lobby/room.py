"""The room before the deal: who sits where and what this visitor may do there."""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from pigparlor.ratings.pages import seat_links, seat_ratings
from pigparlor.tables.models import OPEN, Table


def table_page_url(table: Table) -> str:
    """The live table page (players and spectators alike)."""
    return reverse("table", args=[table.pk])


def room_context(table: Table, user, invite_code: str | None) -> dict | None:
    """What the room shows ``user``; None when a private table must stay hidden from them."""
    seats = list(table.seat_set.select_related("user__profile", "reserved_for__profile").order_by("index"))
    mine = next((seat for seat in seats if user.is_authenticated and seat.user_id == user.pk), None)
    invited = bool(table.invite_code) and invite_code == table.invite_code
    kept = is_kept_for(seats, user) and table.status == OPEN
    if table.private and mine is None and not invited and not kept:
        return None
    is_open = table.status == OPEN
    ratings, links = seat_ratings(table, seats), seat_links(seats)
    return {
        "table": table,
        "seats": seats,
        "seat_rows": [{"seat": seat, "rating": ratings.get(seat.index), "username": links.get(seat.index)}
                      for seat in seats],
        "my_seat": mine,
        "is_host": user.is_authenticated and table.host_id == user.pk,
        "can_join": is_open and mine is None and any(seat.free_for(user) for seat in seats),
        "invite_code": invite_code if invited else "",
        "invite_path": reverse("lobby:invite", args=[table.invite_code]) if table.private and mine else "",
        "empty_seats": sum(1 for seat in seats if not seat.taken),
        "rematch_of": table.rematch_of_id,
        "kept_for_you": kept and mine is None,
        "rematch_wait_minutes": max(1, round(settings.PIGPARLOR_REMATCH_WAIT_MS / 60_000)),
        "taken_seats": sum(1 for seat in seats if seat.taken),
    }


def is_kept_for(seats, user) -> bool:
    """A rematch keeps one of these seats for ``user``, who has not taken it yet."""
    return user.is_authenticated and any(seat.reserved_for_id == user.pk and not seat.taken for seat in seats)
