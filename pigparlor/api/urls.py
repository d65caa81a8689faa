from django.urls import path

from pigparlor.api import tournaments, views

urlpatterns = [
    path("tables/", views.create, name="api-create-table"),
    path("tables/<int:table_id>/", views.detail, name="api-table"),
    path("tables/<int:table_id>/join/", views.join, name="api-join-table"),
    path("tables/<int:table_id>/leave/", views.leave, name="api-leave-table"),
    path("tables/<int:table_id>/rematch/", views.rematch, name="api-rematch-table"),
    path("tables/<int:table_id>/replay/", views.table_replay, name="api-table-replay"),
    path("players/<str:username>/", views.player, name="api-player"),
    path("leaderboard/<str:game>/", views.leaderboard, name="api-leaderboard"),
    path("tournaments/", tournaments.collection, name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", tournaments.detail, name="api-tournament"),
    path("tournaments/<int:tournament_id>/register/", tournaments.register, name="api-tournament-register"),
    path("tournaments/<int:tournament_id>/withdraw/", tournaments.withdraw, name="api-tournament-withdraw"),
    path("tournaments/<int:tournament_id>/checkin/", tournaments.checkin, name="api-tournament-checkin"),
    path("tournaments/<int:tournament_id>/me/", tournaments.me, name="api-tournament-me"),
    path("schema/", views.openapi_document, name="api-schema"),
    path("schema/socket/", views.socket_document, name="api-socket-schema"),
]
