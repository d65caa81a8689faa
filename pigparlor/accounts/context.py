"""``is_guest`` in every template: whether the page's user is a guest (asked once, when used)."""
from django.utils.functional import SimpleLazyObject

from pigparlor.accounts.guests import is_guest


def guest(request) -> dict:
    return {"is_guest": SimpleLazyObject(lambda: is_guest(getattr(request, "user", None)))}
