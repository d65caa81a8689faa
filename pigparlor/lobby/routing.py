from django.urls import path

from pigparlor.lobby.consumers import LobbyConsumer, WaitingRoomConsumer

websocket_urlpatterns = [
    path("ws/lobby/<slug:slug>/", LobbyConsumer.as_asgi()),
    path("ws/lobby/tables/<int:table_id>/", WaitingRoomConsumer.as_asgi()),
]
