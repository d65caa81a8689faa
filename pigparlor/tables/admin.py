from django.contrib import admin

from pigparlor.tables.models import ActionLog, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_kind", "replaced", "timeouts", "connections")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "title", "host", "status", "seats", "version", "created_at")
    list_filter = ("game", "status", "private")
    search_fields = ("title", "host__username")
    readonly_fields = ("state", "outcome", "seed", "version", "seats_rev", "started_at_ms", "changed_at_ms", "wake_at_ms")
    inlines = [SeatInline]


@admin.register(ActionLog)
class ActionLogAdmin(admin.ModelAdmin):
    list_display = ("table", "version", "seat", "action", "at_ms", "user")
    list_filter = ("table__game",)
    readonly_fields = ("table", "version", "seat", "action", "at_ms", "user")
