from django.urls import path

from pigparlor.tables import replay_views, views

urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/replay/", replay_views.replay_page, name="table-replay"),
    path("tables/<int:table_id>/replay/step/", replay_views.replay_step, name="table-replay-step"),
    path("tables/<int:table_id>/replay/proof/", replay_views.replay_proof, name="table-replay-proof"),
    path("fairness/", replay_views.fairness, name="fairness"),
]
