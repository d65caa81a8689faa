from django.apps import AppConfig


class PiggyPiggyConfig(AppConfig):
    name = "games.piggypiggy"
    label = "piggypiggy"

    def ready(self):
        from games.core.registry import Game, register
        from games.piggypiggy.bots import BOTS
        from games.piggypiggy.coach import COACH
        from games.piggypiggy.engine import ENGINE
        register(Game(engine=ENGINE, bots=BOTS, coach=COACH, table_template="piggypiggy/table.html",
                      lobby_art="piggypiggy/_lobby_art.html",
                      bot_mu={"easy": 14.260, "sensible": 25.0, "random": -10.900},
                      blurb="Play food, steal pigs, and score what you draw to match them."))
