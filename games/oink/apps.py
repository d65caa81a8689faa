from django.apps import AppConfig


class OinkConfig(AppConfig):
    name = "games.oink"
    label = "oink"

    def ready(self):
        from games.core.registry import Game, register
        from games.oink.bots import BOTS
        from games.oink.coach import COACH
        from games.oink.engine import ENGINE
        register(Game(engine=ENGINE, bots=BOTS, coach=COACH, table_template="oink/table.html",
                      lobby_art="oink/_lobby_art.html",
                      bot_mu={"easy": 2.902, "sensible": 25.0, "hard": 69.963, "random": 22.256},
                      blurb="Flip, watch, and slap with the right cry before anyone else.",
                      score_unit=("card", "cards")))
