from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "pigparlor.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from pigparlor.tables.signals import clock_tick, table_finished
        from pigparlor.tournaments.live import on_table_over
        from pigparlor.tournaments.ticks import on_clock_tick, on_table_finished

        # Connected after the ratings app's receiver (INSTALLED_APPS order): a
        # tournament table is rated before the tournament moves on.
        table_finished.connect(on_table_finished, dispatch_uid="tournaments-advance")
        clock_tick.connect(on_clock_tick, dispatch_uid="tournaments-tick")
        # The pages: a finished table's "your table is ready" banners go away.
        table_finished.connect(on_table_over, dispatch_uid="tournaments-banner")
