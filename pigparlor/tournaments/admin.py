"""Staff's view of tournaments: every tournament with its state; add one, or
change an upcoming one, with its stages inline (refused without a stage,
each stage judged as the API judges it); mark a player-hosted one rated;
cancel one with a reason the players see; remove a player between rounds;
series with their templates. Every change goes through the services."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.template.response import TemplateResponse
from django.utils import timezone

from games.core.registry import all_games
from pigparlor.tables.errors import TableError
from pigparlor.tournaments import services, spec
from pigparlor.tournaments.forms import judge_stages, tournament_spec
from pigparlor.tournaments.models import Entry, Series, Stage, Tournament


class OptionalJSONField(forms.JSONField):
    """Empty, not "null", when there is nothing."""

    def prepare_value(self, value):
        return "" if value is None else super().prepare_value(value)


class StageForm(forms.ModelForm):
    game = forms.ChoiceField(choices=lambda: [(game.slug, game.title) for game in all_games()])
    options = forms.JSONField(required=False, initial=dict,
                              help_text="The game's table options; empty for its defaults (a turn timer is required)")
    points = OptionalJSONField(required=False, help_text="Points per place, first first; empty for table size − place")

    class Meta:
        model = Stage
        fields = ("game", "format", "table_size", "advance", "rounds", "options", "points")

    def stage_body(self) -> dict:
        """The stage as the API's create body names it."""
        return {name: self.cleaned_data[name] for name in spec.STAGE_FIELDS
                if self.cleaned_data.get(name) not in (None, "")}


class StageFormSet(forms.BaseInlineFormSet):
    """The stages in order, each judged as the API judges it (``spec.stage``);
    a tournament without one is refused."""

    def clean(self):
        super().clean()
        if any(form.errors for form in self.forms):
            return
        kept = [form for form in self.forms
                if (form.instance.pk or form.has_changed()) and not self._should_delete_form(form)]
        if not kept:
            raise ValidationError("A tournament needs at least one stage: fill in the stage below.")
        if len(kept) > spec.MAX_STAGES:
            raise ValidationError(f"A tournament has at most {spec.MAX_STAGES} stages.")
        self.parsed = judge_stages(kept)
        if len(self.parsed) != len(kept):
            raise ValidationError("Correct the stages below.")


class StageInline(admin.TabularInline):
    model = Stage
    form = StageForm
    formset = StageFormSet
    extra = 1
    fields = ("game", "format", "table_size", "advance", "rounds", "options", "points")

    def get_extra(self, request, obj=None, **kwargs):
        return 1 if obj is None else 0

    def _editable(self, obj) -> bool:
        return obj is None or obj.status == "upcoming"

    def has_change_permission(self, request, obj=None):
        return self._editable(obj) and super().has_change_permission(request, obj)

    def has_add_permission(self, request, obj=None):
        return self._editable(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return obj is not None and self._editable(obj) and super().has_delete_permission(request, obj)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("user", "status", "rating", "place", "exit_stage", "exit_round", "removed_reason")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class TournamentForm(forms.ModelForm):
    """The tournament's own fields, judged as the API judges them (``spec``)."""

    class Meta:
        model = Tournament
        fields = ("name", "starts_at", "min_players", "max_players", "rated", "min_rating", "max_rating",
                  "min_games", "established")

    def clean_name(self):
        try:
            return services.clean_name(self.cleaned_data["name"])
        except TableError as refusal:
            raise ValidationError(refusal.message) from None

    def clean(self):
        cleaned = super().clean()
        try:
            if cleaned.get("min_players") is not None and cleaned.get("max_players") is not None:
                spec.capacity({"min": cleaned["min_players"], "max": cleaned["max_players"]})
            spec.conditions({name: cleaned.get(name) for name in spec.CONDITION_FIELDS})
        except TableError as refusal:
            raise ValidationError(refusal.message) from None
        starts_at = cleaned.get("starts_at")
        if starts_at is not None and "starts_at" in self.changed_data and starts_at <= timezone.now():
            self.add_error("starts_at", "The start must be in the future.")
        return cleaned


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Tournaments with their stages inline. A new or upcoming one is saved
    through the services (``create_tournament``, ``edit_tournament``), stages
    and all; once it has started it is read-only here."""

    form = TournamentForm
    list_display = ("name", "status", "starts_at", "players", "rated", "rated_requested", "host", "series",
                    "cancel_reason")
    list_filter = ("status", "rated", "rated_requested", "series")
    search_fields = ("name", "created_by__username")
    readonly_fields = ("status", "cancel_reason", "revision", "started_at", "finished_at", "created_by", "series",
                       "rated_requested")
    fields = ("name", "starts_at", "min_players", "max_players", "rated", "min_rating", "max_rating", "min_games",
              "established", *readonly_fields)
    inlines = [StageInline, EntryInline]
    actions = ["cancel_selected"]

    @admin.display(description="players")
    def players(self, obj):
        return obj.entries.filter(status__in=("registered", "checked_in", "in")).count()

    @admin.display(description="host", ordering="created_by__username")
    def host(self, obj):
        return obj.created_by or "—"

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != "upcoming":
            return self.fields
        return self.readonly_fields

    def save_model(self, request, obj, form, change):
        """Nothing yet: ``save_related`` saves the tournament with its stages, through the services."""

    def save_related(self, request, form, formsets, change):
        stages = next((formset for formset in formsets if formset.model is Stage), None)
        if stages is None or not hasattr(stages, "parsed"):
            return  # read-only: it has started
        data = form.cleaned_data
        try:
            if change:
                services.edit_tournament(form.instance.pk, name=data["name"], starts_at=data["starts_at"],
                                         tournament_spec=tournament_spec(data, stages.parsed))
            else:
                made = services.create_tournament(name=data["name"], starts_at=data["starts_at"],
                                                  tournament_spec=tournament_spec(data, stages.parsed),
                                                  created_by=request.user)
                form.instance.pk = made.pk
        except TableError as refusal:
            self.message_user(request, refusal.message, messages.ERROR)

    def construct_change_message(self, request, form, formsets, add=False):
        if add:
            return [{"added": {}}]
        changed = list(form.changed_data) + (["stages"] if any(each.has_changed() for each in formsets) else [])
        return [{"changed": {"fields": changed}}] if changed else []

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
