"""``{% chat_panel table=table %}`` or ``{% chat_panel game=game %}``: the chat panel
of a table or of a game's lobby, for the page's user."""
from django import template

from pigparlor.accounts.guests import is_guest
from pigparlor.moderation.chat import QUICK_PHRASES
from pigparlor.moderation.models import Report
from pigparlor.tables.models import Seat

register = template.Library()


@register.inclusion_tag("moderation/_chat.html", takes_context=True)
def chat_panel(context, table=None, game=None):
    user = context.get("user")
    signed_in = user is not None and user.is_authenticated
    read_only = "" if signed_in else "Log in to chat."
    guest = is_guest(user)
    if guest:
        read_only = "Guests can read the chat: sign up to write in it."
    if signed_in and table is not None and not table.spectators_chat \
            and not Seat.objects.filter(table=table, user=user).exists():
        read_only = "Spectators can read this table's chat but not write in it."
    return {
        "user": user, "chat_label": "Table chat" if table is not None else f"{game.title} lobby chat",
        "chat_can_write": not read_only, "chat_read_only": read_only, "chat_phrases": QUICK_PHRASES,
        "chat_report_reasons": Report.REASONS, "chat_can_report": signed_in and not guest,
    }
