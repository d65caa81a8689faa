"""The "Create a tournament" form: the event's own fields and its stages (a
formset; "Add a stage" and "Remove" re-show it with one more or one less).
The forms read what was typed; ``spec`` (the API's judge) decides whether
each stage can be played, and ``services.host_tournament`` the rest.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.utils import timezone

from games.core.registry import all_games
from pigparlor.tables.errors import TableError
from pigparlor.tournaments import spec
from pigparlor.tournaments.models import ELIMINATION, SWISS

STAGE_PREFIX = "stage"
LOCAL_INPUT = "%Y-%m-%dT%H:%M"
UTC = ZoneInfo("UTC")
FORMATS = [(SWISS, "Swiss — everyone plays every round; points per place decide"),
           (ELIMINATION, "Elimination — the top of each table go on until one table is left")]


def judge_stages(stage_forms) -> list[spec.StageSpec]:
    """Each form's stage (``stage_body()``), in order, judged as the API judges
    a stage; a refusal is put on its form, named "Stage N"."""
    parsed = []
    for position, form in enumerate(stage_forms):
        try:
            parsed.append(spec.stage(form.stage_body(), position, position == len(stage_forms) - 1,
                                     where=f"Stage {position + 1}"))
        except TableError as refusal:
            form.add_error(None, refusal.message)
    return parsed


def tournament_spec(data: dict, stages: list[spec.StageSpec]) -> spec.TournamentSpec:
    """A form's cleaned fields (named as the model's) and its judged stages, as the services take them."""
    return spec.TournamentSpec(tuple(stages), data["min_players"], data["max_players"], data["rated"],
                               data["min_rating"], data["max_rating"], data["min_games"] or 0, data["established"])


def _seat_ranges() -> str:
    return ", ".join(f"{game.title} {game.engine.min_seats}–{game.engine.max_seats}" for game in all_games())


class StageForm(forms.Form):
    game = forms.ChoiceField(label="Game", choices=lambda: [(game.slug, game.title) for game in all_games()])
    format = forms.ChoiceField(label="Format", choices=FORMATS, widget=forms.RadioSelect, initial=SWISS)
    table_size = forms.IntegerField(label="Players per table", min_value=2, max_value=12, initial=4)
    rounds = forms.IntegerField(label="Rounds (Swiss)", min_value=1, max_value=spec.MAX_SWISS_ROUNDS,
                                required=False, initial=3)
    advance = forms.IntegerField(label="Who goes on", min_value=1, max_value=spec.MAX_PLAYERS, required=False,
                                 help_text="Elimination: how many of each table go on. Swiss before another "
                                           "stage: how many go on to it. Empty for a Swiss last stage.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table_size"].help_text = f"Seats each game takes: {_seat_ranges()}."

    def stage_body(self) -> dict:
        """The stage as the API's create body names it; a field the format does
        not use is left out (rounds for an elimination)."""
        data = self.cleaned_data
        body = {"game": data["game"], "format": data["format"], "table_size": data["table_size"]}
        if data["format"] == SWISS and data.get("rounds") is not None:
            body["rounds"] = data["rounds"]
        if data.get("advance") is not None:
            body["advance"] = data["advance"]
        return body


class BaseStageFormSet(forms.BaseFormSet):
    def clean(self):
        if any(self.errors):
            return
        self.parsed = judge_stages(self.forms)
        if len(self.parsed) != len(self.forms):
            raise forms.ValidationError("Correct the stages below.")


StageFormSet = forms.formset_factory(StageForm, formset=BaseStageFormSet, extra=0, min_num=1,
                                     max_num=spec.MAX_STAGES, validate_min=True, validate_max=True)


def stage_rows(data, remove: int | None = None, add: bool = False) -> list[dict]:
    """The stages as typed (raw), for showing the form again with one removed or one more."""
    try:
        total = min(int(data.get(f"{STAGE_PREFIX}-TOTAL_FORMS", 1)), spec.MAX_STAGES)
    except ValueError:
        total = 1
    rows = [{name: data.get(f"{STAGE_PREFIX}-{index}-{name}", "") for name in StageForm.base_fields}
            for index in range(max(total, 1))]
    if remove is not None and 0 <= remove < len(rows) and len(rows) > 1:
        del rows[remove]
    if add and len(rows) < spec.MAX_STAGES:
        # A stage after another is most often the final: an elimination of the same game.
        rows.append({**rows[-1], "format": ELIMINATION, "rounds": "", "advance": 1})
    return rows


class TimeZoneField(forms.Field):
    """The browser's time zone (set by static/js/tournaments.js), never an
    error: UTC when it is missing or not a zone we know."""

    def to_python(self, value):
        try:
            return ZoneInfo(value) if isinstance(value, str) and value else UTC
        except (ZoneInfoNotFoundError, ValueError):
            return UTC


class HostForm(forms.Form):
    name = forms.CharField(label="Name", max_length=80)
    starts_at = forms.DateTimeField(
        label="Starts", input_formats=[LOCAL_INPUT, "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "data-local-input": ""}, format=LOCAL_INPUT),
        help_text="In your time zone. Players check in during the last minutes before it.")
    time_zone = TimeZoneField(required=False, widget=forms.HiddenInput(attrs={"data-time-zone": ""}))
    min_players = forms.IntegerField(label="At least", min_value=2, max_value=spec.MAX_PLAYERS, initial=4,
                                     help_text="Fewer checked in at the start, and it is called off.")
    max_players = forms.IntegerField(label="At most", min_value=2, max_value=spec.MAX_PLAYERS, initial=16)
    rated = forms.BooleanField(label="Ask staff to make it rated", required=False,
                               help_text="Tournaments players host are casual; staff may make yours rated.")
    min_rating = forms.IntegerField(label="Rating at least", required=False, min_value=0, max_value=5000)
    max_rating = forms.IntegerField(label="Rating at most", required=False, min_value=0, max_value=5000)
    min_games = forms.IntegerField(label="Rated games at least", required=False, min_value=0, max_value=100_000)
    established = forms.BooleanField(label="An established rating (no longer provisional)", required=False)

    def __init__(self, *args, staff: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if staff:
            self.fields["rated"].label = "Rated"
            self.fields["rated"].help_text = "Every table moves its players' ratings."

    def clean_name(self):
        from pigparlor.tournaments.services import clean_name

        try:
            return clean_name(self.cleaned_data["name"])
        except TableError as refusal:
            raise forms.ValidationError(refusal.message.capitalize()) from None

    def clean(self):
        cleaned = super().clean()
        starts_at, zone = cleaned.get("starts_at"), cleaned.get("time_zone")
        if starts_at is not None and zone is not None:
            # Typed in the reader's zone (the field read it in the server's).
            typed = timezone.make_naive(starts_at, timezone.get_current_timezone())
            cleaned["starts_at"] = starts_at = datetime.combine(typed.date(), typed.time(), tzinfo=zone)
            if starts_at <= timezone.now():
                self.add_error("starts_at", "Pick a time in the future.")
        low, high = cleaned.get("min_players"), cleaned.get("max_players")
        if low is not None and high is not None and low > high:
            self.add_error("max_players", "At most must not be below at least.")
        low, high = cleaned.get("min_rating"), cleaned.get("max_rating")
        if low is not None and high is not None and low > high:
            self.add_error("max_rating", "The highest rating must not be below the lowest.")
        return cleaned
