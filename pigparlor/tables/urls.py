from django.urls import path

from pigparlor.tables import views

urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
]
