from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "pigparlor.tables"
    label = "tables"
    verbose_name = "Tables"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        user_logged_out.connect(close_session_sockets, dispatch_uid="tables.close_session_sockets")


def close_session_sockets(sender, request=None, **kwargs):
    """A browser session logged out: its table sockets close (sent before the session is flushed)."""
    from pigparlor.tables.broadcast import revoke_sockets, session_group

    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        revoke_sockets(session_group(key), "you logged out")
