"""``{{ username|player_url }}``: the address of a player's page. A username the
URL pattern cannot carry (one made outside sign-up, with a slash) gets a quoted
address instead of breaking the page around it."""
from urllib.parse import quote

from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.filter
def player_url(username: str) -> str:
    try:
        return reverse("accounts:player", args=[username])
    except NoReverseMatch:
        return f"/players/{quote(username, safe='')}/"
