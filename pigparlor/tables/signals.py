"""Signals other apps listen to.

``table_listing_changed(sender=Table, table=table)`` goes out after a commit
that changed a table's seats or status: the lobby's live listing listens.

``table_finished(sender=Table, table_id=id)`` goes out after the commit that
gave a table its outcome, before its sockets hear of it: the ratings app rates
the table there, so the final frames already show the rating changes.
"""
from django.dispatch import Signal

table_listing_changed = Signal()
table_finished = Signal()
