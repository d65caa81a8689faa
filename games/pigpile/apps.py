from django.apps import AppConfig


class PigPileConfig(AppConfig):
    name = "games.pigpile"
    label = "pigpile"
    verbose_name = "Pig Pile"

    def ready(self):
        from games.core.registry import Game, register
        from games.pigpile.bots import BOTS
        from games.pigpile.coach import COACH
        from games.pigpile.engine import ENGINE

        register(Game(engine=ENGINE, bots=BOTS, coach=COACH, table_template="pigpile/table.html",
                      lobby_art="pigpile/_lobby_art.html",
                      bot_mu={"easy": 10.663, "sensible": 25.0, "random": -25.810},
                      blurb="Race to shed your cards; wash the pile with an 8.",
                      score_unit=("pig", "pigs")))
