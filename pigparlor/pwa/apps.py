from django.apps import AppConfig


class PwaConfig(AppConfig):
    name = "pigparlor.pwa"
    label = "pwa"
    verbose_name = "Installable app and push notifications"

    def ready(self):
        from pigparlor.pwa.inbox import on_listing_changed, on_table_moved
        from pigparlor.pwa.tournament_pushes import on_clock_tick
        from pigparlor.pwa.turns import table_moved as queue_turn_check
        from pigparlor.tables.signals import clock_tick, table_listing_changed, table_moved

        table_moved.connect(queue_turn_check, dispatch_uid="pwa.turn_check")
        table_moved.connect(on_table_moved, dispatch_uid="pwa.inbox_mover")
        table_listing_changed.connect(on_listing_changed, dispatch_uid="pwa.inbox_listing")
        clock_tick.connect(on_clock_tick, dispatch_uid="pwa.tournament_checkins")
