"""``{% your_reports user %}``: on a player's own profile, the reports they made
and what came of them."""
from django import template

from pigparlor.moderation.models import Report

register = template.Library()


@register.inclusion_tag("moderation/_your_reports.html")
def your_reports(user):
    return {"reports": list(Report.objects.filter(reporter=user).select_related("target").order_by("-created_at")[:20])}
