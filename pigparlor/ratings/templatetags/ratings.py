from django import template

from pigparlor.ratings import pages

register = template.Library()


@register.simple_tag
def rated_standings(table, standings):
    """``{% rated_standings table standings as rows %}``: the standings with each player's rating change."""
    return pages.rated_standings(table, standings)
