from django.urls import path

from pigparlor.tournaments.consumers import PlayerConsumer, TournamentConsumer, TournamentListConsumer

websocket_urlpatterns = [
    path("ws/tournaments/", TournamentListConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/player/", PlayerConsumer.as_asgi()),
]
