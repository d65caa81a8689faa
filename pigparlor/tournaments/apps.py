from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "pigparlor.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from pigparlor.tables.signals import clock_tick, table_finished, table_origin
        from pigparlor.tournaments.live import on_table_over
        from pigparlor.tournaments.live import table_origin as back_to_tournament
        from pigparlor.tournaments.ticks import on_clock_tick, on_table_finished

        # Connected after the ratings app's receiver (INSTALLED_APPS order): a
        # tournament table is rated before the tournament moves on.
        table_finished.connect(on_table_finished, dispatch_uid="tournaments-advance")
        clock_tick.connect(on_clock_tick, dispatch_uid="tournaments-tick")
        # The pages: a finished table's "your table is ready" banners go away.
        table_finished.connect(on_table_over, dispatch_uid="tournaments-banner")
        # A tournament's table leads back to its tournament when it is over.
        table_origin.connect(back_to_tournament, dispatch_uid="tournaments-origin")
