"""Signals other apps listen to.

``table_listing_changed(sender=Table, table=table)`` goes out after a commit
that changed a table's seats or status: the lobby's live listing listens.

``table_finished(sender=Table, table_id=id)`` goes out after the commit that
gave a table its outcome, before its sockets hear of it: the ratings app rates
the table there, so the final frames already show the rating changes.

``table_moved(sender=Table, table_id=id, version=n, user_id=id | None)`` goes out
after every commit that changed a game's state (``act``, and the deal), with the
new version and the user who moved (None for the clock, a bot or the deal): the
push app queues its "your turn" check there. Listeners must only queue, never
do slow work: they run in the mover's request.

``clock_tick(sender=Clock, now_ms=now)`` goes out on every pass of the clock
(every process that runs one), after the tables' own due work and in its own
hop to a worker thread. A receiver does a small, bounded step of its app's
scheduled work (the tournaments app starts and seats tournaments there) and
returns when it next has something to do (epoch ms) or None.

``table_origin(sender=Table, table=table)`` asks where a finished or closed
table came from, for its end screen's way back: the app that made it (the
tournaments, for their rounds' tables) answers a ``rendering.Origin``, every
other receiver None. It is sent with the query that reads a finished table's
snapshot, never while a game runs.

``seat_wanted(sender=Table, table=table, user=user)`` is sent inside
``join_table``'s transaction before a user takes a seat, and inside
``create_table``'s and ``rematch_table``'s once the new table's seats exist, for
the host (or the player asking for the rematch); a receiver refuses by raising
``TableError``, which undoes the whole change (moderation: a player kicked from
the table; accounts: a guest at a rated table, a table of people only, or too
many tables).
"""
from django.dispatch import Signal

table_listing_changed = Signal()
table_finished = Signal()
table_moved = Signal()
clock_tick = Signal()
seat_wanted = Signal()
table_origin = Signal()
