from django.urls import path

from pigparlor.api.consumers import ApiTableConsumer

websocket_urlpatterns = [
    path("ws/api/tables/<int:table_id>/", ApiTableConsumer.as_asgi()),
]
