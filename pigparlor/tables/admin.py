from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from pigparlor.tables.models import OPEN, ActionLog, Seat, Table
from pigparlor.tables.replay import OVER

SECRET_UNTIL_OVER = "hidden until the table is over"


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_kind", "replaced", "timeouts", "connections")

    def has_add_permission(self, request, obj=None):
        return obj is None or obj.status == OPEN and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return (obj is None or obj.status == OPEN) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return (obj is None or obj.status == OPEN) and super().has_delete_permission(request, obj)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """A running table's seed and state (every hand) stay hidden here too: the
    seed is revealed with the replay once the table is over (docs/fairness.md).

    Once a table has started it is read-only here, its seats too, and cannot be
    deleted: a running game's rows belong to the table services, and a finished
    table's seats and result are its players' rated history. A moderator changes
    them only through the moderation services, which write the mod log (closing
    a table, kicking a seat, voiding the ratings)."""

    list_display = ("pk", "game", "title", "host", "status", "seats", "version", "created_at")
    list_filter = ("game", "status", "private")
    search_fields = ("title", "host__username")
    exclude = ("seed", "state", "salts")
    readonly_fields = ("replay", "revealed_seed", "commitment", "revealed_salts", "revealed_state", "outcome",
                       "version", "seats_rev", "started_at_ms", "changed_at_ms", "wake_at_ms")
    inlines = [SeatInline]

    def has_change_permission(self, request, obj=None):
        return (obj is None or obj.status == OPEN) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return (obj is None or obj.status == OPEN) and super().has_delete_permission(request, obj)

    @admin.display(description="replay")
    def replay(self, table):
        if table.status not in OVER or table.state is None:
            return "once the table is over"
        return format_html('<a href="{}">replay and verify</a>', reverse("table-replay", args=[table.pk]))

    @admin.display(description="seed")
    def revealed_seed(self, table):
        return table.seed if table.status in OVER else SECRET_UNTIL_OVER

    @admin.display(description="salts")
    def revealed_salts(self, table):
        return table.salts if table.status in OVER else SECRET_UNTIL_OVER

    @admin.display(description="state")
    def revealed_state(self, table):
        return table.state if table.status in OVER else SECRET_UNTIL_OVER


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows shown, never added, changed or deleted here, to superusers too: a
    service owns them (and writes its own audit)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ActionLog)
class ActionLogAdmin(ReadOnlyAdmin):
    """Only tables that are over: a running table's log names cards (a Snout! pass) its players may not see.
    Read only, to superusers too: the log is what replays, verifies and rates a table."""

    list_display = ("table", "version", "seat", "action", "at_ms", "user")
    list_filter = ("table__game",)
    readonly_fields = ("table", "version", "seat", "action", "at_ms", "user")

    def get_queryset(self, request):
        return super().get_queryset(request).filter(table__status__in=OVER)
