"""Signals other apps listen to.

``table_listing_changed(sender=Table, table=table)`` goes out after a commit
that changed a table's seats or status: the lobby's live listing listens.
"""
from django.dispatch import Signal

table_listing_changed = Signal()
