from django.urls import path

from pigparlor.api import views

urlpatterns = [
    path("tables/", views.create, name="api-create-table"),
    path("tables/<int:table_id>/", views.detail, name="api-table"),
    path("tables/<int:table_id>/join/", views.join, name="api-join-table"),
    path("tables/<int:table_id>/leave/", views.leave, name="api-leave-table"),
    path("players/<str:username>/", views.player, name="api-player"),
    path("leaderboard/<str:game>/", views.leaderboard, name="api-leaderboard"),
]
