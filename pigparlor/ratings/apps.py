from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "pigparlor.ratings"
    label = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        from pigparlor.ratings.service import on_table_finished
        from pigparlor.tables.signals import table_finished

        table_finished.connect(on_table_finished, dispatch_uid="ratings-rate-table")
