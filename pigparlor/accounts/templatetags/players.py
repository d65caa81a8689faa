"""``{{ username|player_url }}``: the address of a player's page. A username the
URL pattern cannot carry (one made outside sign-up, with a slash) gets a quoted
address instead of breaking the page around it.

Cached: a live table's page names its players in every frame of every viewer,
and ``reverse`` reads the URL configuration through a lock shared by every
thread (asgiref's ``Local``) — with the ORM thread busy, waiting on that lock
was 29 % of a browser seat's update (docs/benchmarks.md, issue 14). The URL
configuration does not change while the site runs.
"""
from functools import lru_cache
from urllib.parse import quote

from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.filter
@lru_cache(maxsize=4096)
def player_url(username: str) -> str:
    try:
        return reverse("accounts:player", args=[username])
    except NoReverseMatch:
        return f"/players/{quote(username, safe='')}/"
