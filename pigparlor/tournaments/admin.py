"""Staff's view of tournaments: every tournament with its state; cancel one
with a reason the players see; remove a player between rounds; series with
their templates. Every change goes through the services."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.template.response import TemplateResponse

from pigparlor.tables.errors import TableError
from pigparlor.tournaments import services, spec
from pigparlor.tournaments.models import Entry, Series, Stage, Tournament


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    can_delete = False
    fields = ("index", "game", "format", "table_size", "advance", "rounds", "options", "points")

    def has_change_permission(self, request, obj=None):
        return obj is None or obj.status == "upcoming"

    def has_add_permission(self, request, obj=None):
        return obj is not None and obj.status == "upcoming"


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("user", "status", "rating", "place", "exit_stage", "exit_round", "removed_reason")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "starts_at", "players", "rated", "series", "cancel_reason")
    list_filter = ("status", "rated", "series")
    search_fields = ("name",)
    readonly_fields = ("status", "cancel_reason", "revision", "started_at", "finished_at", "created_by", "series")
    fields = ("name", "starts_at", "min_players", "max_players", "rated", "min_rating", "max_rating", "min_games",
              "established", *readonly_fields)
    inlines = [StageInline, EntryInline]
    actions = ["cancel_selected"]

    @admin.display(description="players")
    def players(self, obj):
        return obj.entries.filter(status__in=("registered", "checked_in", "in")).count()

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description="Cancel the selected tournaments (with a reason)")
    def cancel_selected(self, request, queryset):
        return with_reason(self, request, queryset, "cancel_selected", "Cancel these tournaments?", "Cancel them",
                           lambda tournament, reason: services.cancel_tournament(tournament.pk, reason))


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """Registrations; staff remove a player (before the start or between rounds)."""

    list_display = ("user", "tournament", "status", "rating", "place")
    list_filter = ("status",)
    search_fields = ("user__username", "tournament__name")
    readonly_fields = [field.name for field in Entry._meta.fields]
    actions = ["remove_selected"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Remove the selected players from their tournaments (with a reason)")
    def remove_selected(self, request, queryset):
        return with_reason(self, request, queryset, "remove_selected", "Remove these players?", "Remove them",
                           lambda entry, reason: services.remove_player(entry.tournament_id, entry.user, reason))


def with_reason(model_admin, request, queryset, action, question, button, apply):
    """An action that asks for a reason first, then calls ``apply(obj, reason)`` per object."""
    reason = request.POST.get("reason", "").strip()
    if "apply" not in request.POST or not reason:
        return TemplateResponse(request, "admin/tournaments/reason.html", {
            **model_admin.admin_site.each_context(request), "queryset": queryset, "action": action,
            "question": question, "button": button, "title": question})
    for obj in queryset:
        try:
            apply(obj, reason)
            model_admin.message_user(request, f"done: {obj}")
        except TableError as refusal:
            model_admin.message_user(request, f"{obj}: {refusal.message}", messages.ERROR)
    return None


class SeriesForm(forms.ModelForm):
    class Meta:
        model = Series
        fields = "__all__"

    def clean_template(self):
        template = self.cleaned_data["template"]
        try:
            spec.tournament(template)
        except TableError as refusal:
            raise ValidationError(refusal.message) from None
        return template


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    form = SeriesForm
    list_display = ("name", "cadence", "weekday", "time", "ahead_hours", "active")
    list_filter = ("cadence", "active")
