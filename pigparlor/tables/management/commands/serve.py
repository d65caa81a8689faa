"""``manage.py serve``: the whole site in one process.

Applies migrations, sweeps presence left by dead processes and recomputes every
running table's wake-up, then runs Daphne on the ASGI app with the table clock
(turn timers, bot moves, seat hand-overs) and the presence heartbeat as tasks on
the same event loop.
"""
from daphne.server import Server  # first: it installs Twisted's asyncio reactor

import asyncio  # noqa: E402
import os  # noqa: E402

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.management.base import BaseCommand  # noqa: E402


class Command(BaseCommand):
    help = "Migrate, then serve the site (HTTP + WebSockets) with the table clock in the same process."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-clock", action="store_true",
                            help="do not run the clock here (another process runs it)")

    def handle(self, host, port, no_clock, verbosity, **options):
        call_command("migrate", interactive=False, verbosity=0)
        from pigparlor.tables import presence

        # Alone (no Redis), this process holds every socket there is: whatever a
        # previous run left is stale. Scaled out, only dead processes' sockets are.
        presence.start_up(alone=not settings.REDIS_URL)
        self.rate_unrated()
        from pigparlor.asgi import application
        from pigparlor.tables.clock import CLOCK

        tasks = []

        def ready():
            # A frame past websocket_max_message_size (or a text frame that is not
            # UTF-8) fails the connection; autobahn's default drops the TCP link
            # without a word. Close properly instead: 1009 too big, 1007 bad data.
            server.ws_factory.setProtocolOptions(failByDrop=False)
            loop = asyncio.get_event_loop()
            tasks.append(loop.create_task(presence.heartbeat()))
            if not no_clock:
                tasks.append(loop.create_task(CLOCK.run()))
            self.stdout.write(f"Pig Parlor serving on http://{host}:{port}/ (Ctrl-C stops)")
            self.stdout.flush()

        # Behind a proxy, the client's address and scheme come from its X-Forwarded-* headers.
        forwarded = dict(proxy_forwarded_address_header="X-Forwarded-For",
                         proxy_forwarded_port_header="X-Forwarded-Port",
                         proxy_forwarded_proto_header="X-Forwarded-Proto") if settings.BEHIND_PROXY else {}
        server = Server(application=application, endpoints=[f"tcp:port={port}:interface={host}"],
                        ready_callable=ready, verbosity=max(0, verbosity - 1),
                        websocket_max_message_size=64 * 1024, websocket_handshake_timeout=30, **forwarded)
        from twisted.internet import reactor

        reactor.addSystemEventTrigger("before", "shutdown", lambda: [task.cancel() for task in tasks])
        server.run()
        self.stdout.write("Pig Parlor stopped")
        self.stdout.flush()
        # Worker threads may still wait on the stopped event loop (a broadcast
        # after a commit): nothing they hold matters — every table is in the
        # database — so leave now instead of joining them forever.
        os._exit(0)

    def rate_unrated(self):
        """Tables that finished just before a crash, before their rating: rate them now."""
        from pigparlor.ratings.service import rate_unrated

        rated = rate_unrated()
        if rated:
            self.stdout.write(f"Rated {rated} table(s) left unrated by the last run")
