"""The create-table form, built from the game's own option declarations.

The lobby knows no game's rules: seats come from ``min_seats``/``max_seats``
and every ``games.core.Option`` (bool, int, choice) becomes a field named
``opt_<name>``. The engine's ``clean_options`` remains the judge.
"""
from __future__ import annotations

from django import forms

from games.core.bots import DEFAULT_LEVEL
from pigparlor.lobby.pool import default_seats
from pigparlor.tables import inputs
from pigparlor.tables.errors import TableError


def _option_field(option) -> forms.Field:
    common = {"label": option.label, "help_text": option.help, "initial": option.default}
    if option.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if option.kind == "int":
        return forms.IntegerField(min_value=option.min, max_value=option.max, **common)
    if option.kind == "choice":
        return forms.ChoiceField(choices=option.labelled_choices(), **common)
    raise ValueError(f"unknown option kind {option.kind}")


class CreateTableForm(forms.Form):
    title = forms.CharField(max_length=80, required=False, label="Table name",
                            help_text="Optional. Everyone in the lobby sees it.")
    seats = forms.TypedChoiceField(coerce=int, label="Players")
    bots = forms.IntegerField(min_value=0, initial=0, label="Bots",
                              help_text="Bots take the last seats. Fill every other seat with bots to start at once.")
    bot_level = forms.ChoiceField(label="Bot level", required=False)
    private = forms.BooleanField(required=False, label="Private table",
                                 help_text="Hidden from the lobby; friends join with the invite link.")
    casual = forms.BooleanField(required=False, label="Casual (not rated)",
                                help_text="Public tables are rated unless you tick this; private tables are casual.")
    quiet_spectators = forms.BooleanField(required=False, label="Spectators only read the chat",
                                          help_text="Players chat; people watching can read but not write.")

    def __init__(self, *args, game, guest=False, **kwargs):
        """``guest``: the form of a guest (pigparlor/accounts/guests.py), whose tables are
        casual and have a bot: no "Casual" box, every other seat a bot to start with."""
        super().__init__(*args, **kwargs)
        engine = game.engine
        self.engine = engine
        self.fields["seats"].choices = [(n, str(n)) for n in range(engine.min_seats, engine.max_seats + 1)]
        self.fields["seats"].initial = default_seats(game)
        self.fields["bots"].max_value = engine.max_seats - 1
        self.fields["bots"].widget.attrs.update({"min": 0, "max": engine.max_seats - 1})
        levels = [(kind, game.bots[kind]) for kind in game.bot_levels]
        self.fields["bot_level"].choices = [(kind, bot.level) for kind, bot in levels]
        self.fields["bot_level"].help_text = " ".join(f"{bot.level}: {bot.level_help}" for _, bot in levels)
        self.fields["bot_level"].initial = DEFAULT_LEVEL
        for option in engine.options:
            self.fields[f"opt_{option.name}"] = _option_field(option)
        if guest:
            del self.fields["casual"]
            self.fields["bots"].initial = self.fields["seats"].initial - 1
            self.fields["bots"].help_text = ("Guests play with at least one bot. Bots take the last seats; "
                                             "fill every other seat with bots to start at once.")

    def clean_title(self):
        try:
            return inputs.visible_text(self.cleaned_data["title"], "The table name", self.fields["title"].max_length)
        except TableError as refusal:
            raise forms.ValidationError(refusal.message) from None

    def clean(self):
        cleaned = super().clean()
        seats, bots = cleaned.get("seats"), cleaned.get("bots")
        if seats is not None and bots is not None and bots >= seats:
            self.add_error("bots", f"At most {seats - 1} bots: one seat is yours.")
        if cleaned.get("opt_turn_seconds") == 0 and not cleaned.get("private"):
            self.add_error("opt_turn_seconds", "No timer (0) is only for private tables: "
                                               "set a turn timer or make the table private.")
        return cleaned

    def clean_bot_level(self):
        """None (the table's default bots) when the game offers no levels or none was picked."""
        return self.cleaned_data["bot_level"] or None

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def table_options(self) -> dict:
        return {option.name: self.cleaned_data[f"opt_{option.name}"] for option in self.engine.options}
