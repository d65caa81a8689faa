"""Read-only views of ratings: they change only through the rating service."""
from django.contrib import admin

from pigparlor.ratings.models import BotAccount, Rating, RatingEvent, VoidedTable


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "game", "mu", "sigma", "games", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username",)


@admin.register(RatingEvent)
class RatingEventAdmin(ReadOnly):
    list_display = ("pk", "user", "game", "table", "reason", "mu_before", "mu_after", "created_at")
    list_filter = ("game", "reason")
    search_fields = ("user__username",)


@admin.register(VoidedTable)
class VoidedTableAdmin(ReadOnly):
    list_display = ("table", "note", "created_at")


@admin.register(BotAccount)
class BotAccountAdmin(ReadOnly):
    list_display = ("kind", "user")
