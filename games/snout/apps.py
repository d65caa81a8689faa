from django.apps import AppConfig


class SnoutConfig(AppConfig):
    name = "games.snout"
    label = "snout"

    def ready(self):
        from games.core.registry import Game, register
        from games.snout.bots import BOTS
        from games.snout.coach import COACH
        from games.snout.engine import ENGINE
        register(Game(engine=ENGINE, bots=BOTS, coach=COACH, table_template="snout/table.html",
                      lobby_art="snout/_lobby_art.html",
                      bot_mu={"easy": 19.372, "sensible": 25.0, "random": 13.568}, bot_think=2.5,
                      blurb="Toss the pig, shed the matching cards, first to 100 points."))
