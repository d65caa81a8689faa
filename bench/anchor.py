"""The anchor for ``bench/tables.py --anchor``: a bare Channels fan-out, nothing else.

One Daphne process serving ``/ws/anchor/<n>/``: every socket joins group
``anchor-<n>``; a message ``{"type":"act","version":V}`` from any of them is
fanned out to the group as the small frame
``{"type":"state","version":V+1,"legal":[{"type":"tick"}]}``. No database, no
rendering, no state: what the same pace and seat count cost on this stack
before any of our code runs, so a busy machine still gives a fair ratio.

It uses the channel layer our server would (Redis with ``REDIS_URL``, else the
in-memory layer) and, like our table sockets, dispatches without Channels'
per-message hop to a worker thread.

    .venv/bin/python bench/anchor.py --port 8999
"""
from __future__ import annotations

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from daphne.server import Server  # first: it installs Twisted's asyncio reactor

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the layer is ours (pigparlor.layers)

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402

import django  # noqa: E402
from django.conf import settings  # noqa: E402

if not settings.configured:
    redis_url = os.environ.get("REDIS_URL")
    layer = ({"BACKEND": "pigparlor.layers.RedisPubSubChannelLayer",
              "CONFIG": {"hosts": [{"address": redis_url, "max_connections": 1000}],
                         "prefix": os.environ.get("REDIS_PREFIX", "anchor")}}
             if redis_url else {"BACKEND": "channels.layers.InMemoryChannelLayer"})
    settings.configure(CHANNEL_LAYERS={"default": layer}, INSTALLED_APPS=["channels"], ALLOWED_HOSTS=["*"])
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class FanOut(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        await getattr(self, message["type"].replace(".", "_"))(message)

    async def connect(self):
        self.group = f"anchor-{self.scope['url_route']['kwargs']['n']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data='{"type":"state","version":1,"legal":[{"type":"tick"}]}')

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        version = json.loads(text_data)["version"] + 1
        await self.channel_layer.group_send(self.group, {"type": "fan", "version": version})

    async def fan(self, event):
        await self.send(text_data=f'{{"type":"state","version":{event["version"]:d},"legal":[{{"type":"tick"}}]}}')


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/anchor/<int:n>/", FanOut.as_asgi())])})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    Server(application=application, endpoints=[f"tcp:port={args.port}:interface=127.0.0.1"], verbosity=0).run()


if __name__ == "__main__":
    main()
