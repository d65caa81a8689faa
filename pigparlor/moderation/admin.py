"""The moderators' admin: live rooms, the reports queue, chat lines, bans,
timeouts and the mod log — seen only by the Moderator group and superusers (staff
outside the group see none of it), changed only through the action views
(``actions``), the chat lines' list actions (ban or time out the authors) and
the Bans' and Timeouts' "add" (a player looked up by username), which all call
the moderation services. No row is edited or deleted through the admin, the
mod log above all.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.timesince import timesince

from pigparlor.moderation import services
from pigparlor.moderation.actions import action_url, action_view, refused
from pigparlor.moderation.chat import REMOVED_TEXT
from pigparlor.moderation.models import Ban, ChatLine, ChatTimeout, LiveRoom, ModAction, Report
from pigparlor.moderation.permissions import is_moderator
from pigparlor.tables.admin import ReadOnlyAdmin
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import OPEN, RUNNING, ActionLog, Presence
from pigparlor.tables.rendering import load_snapshot
from pigparlor.tables.replay import OVER


class ModeratorsOnly(ReadOnlyAdmin):
    """Visible to the Moderator group only; read-only for everyone."""

    actions = None

    def has_module_permission(self, request):
        return is_moderator(request.user)

    def has_view_permission(self, request, obj=None):
        return is_moderator(request.user, f"view_{self.opts.model_name}")

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            return refused(request)
        return super().changelist_view(request, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            return refused(request)
        return super().change_view(request, object_id, form_url, extra_context)


def _link(name: str, pk: int, label: str, **query) -> str:
    return format_html('<a class="button" href="{}">{}</a>', action_url(name, pk, **query), label)


class LiveFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("live", "Open and running"), ("over", "Over"), ("all", "All")]

    def choices(self, changelist):
        value = self.value() or "live"
        for lookup, title in self.lookup_choices:
            yield {"selected": value == lookup, "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                   "display": title}

    def queryset(self, request, queryset):
        value = self.value() or "live"
        if value == "live":
            return queryset.filter(status__in=[OPEN, RUNNING])
        if value == "over":
            return queryset.exclude(status__in=[OPEN, RUNNING])
        return queryset


@admin.register(LiveRoom)
class LiveRoomAdmin(ModeratorsOnly):
    list_display = ("pk", "game", "title", "status", "players", "spectators", "age", "last_action", "open_reports",
                    "newest_chat")
    list_filter = (LiveFilter, "game", "private")
    search_fields = ("title", "seat_set__user__username", "=id")
    ordering = ("-created_at",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            open_report_count=Count("reports", filter=Q(reports__status=Report.OPEN), distinct=True))

    @admin.display(description="players")
    def players(self, table):
        return ", ".join(seat.user.get_username() if seat.user else f"{seat.bot_kind or 'empty'} bot"
                         for seat in table.seat_set.select_related("user").order_by("index"))

    @admin.display(description="spectators")
    def spectators(self, table):
        seated = table.seat_set.exclude(user=None).values_list("user_id", flat=True)
        return Presence.objects.filter(table=table).exclude(user_id__in=seated).values("user_id").distinct().count()

    @admin.display(description="age")
    def age(self, table):
        return timesince(table.created_at)

    @admin.display(description="last action")
    def last_action(self, table):
        if table.changed_at_ms is None:
            return "—"
        moment = datetime.fromtimestamp(table.changed_at_ms / 1000, tz=UTC)
        return f"{timesince(moment)} ago"

    @admin.display(description="open reports", ordering="open_report_count")
    def open_reports(self, table):
        return table.open_report_count

    @admin.display(description="newest chat")
    def newest_chat(self, table):
        line = ChatLine.objects.filter(room=f"table:{table.pk}").select_related("author").order_by("-id").first()
        return f"{line.author.get_username()}: {REMOVED_TEXT if line.removed_at else line.text}" if line else "—"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        table = self.get_object(request, object_id)
        if table is None or not self.has_view_permission(request, table):
            return super().change_view(request, object_id, form_url, extra_context)
        back = request.get_full_path()
        seats = list(table.seat_set.select_related("user").order_by("index"))
        live = table.status in (OPEN, RUNNING)
        context = {
            **self.admin_site.each_context(request), "opts": self.opts, "title": f"{table} — {table.display_title}",
            "table": table, "live": live, "back": back,
            "seats": [{"index": seat.index + 1, "who": seat.user.get_username() if seat.user else f"{seat.bot_kind or 'empty'} (bot)",
                       "kick": action_url("kick-seat", table.pk, seat=seat.index + 1, next=back)
                       if live and seat.user_id and not seat.bot_kind else "",
                       "user_id": seat.user_id} for seat in seats],
            "lines": ChatLine.objects.filter(room=f"table:{table.pk}").select_related("author").order_by("id"),
            **_log_context(table),
            "reports": Report.objects.filter(table=table).select_related("reporter", "target"),
            "close_url": action_url("close-table", table.pk, next=back),
            "void_url": action_url("void-ratings", table.pk, next=back),
        }
        return TemplateResponse(request, "admin/moderation/liveroom.html", context)


def _log_context(table) -> dict:
    """The action log in words, as the table page writes it (the presenters' lines,
    ``Snapshot.page_log``), always as a spectator sees it (the engine's
    ``view(state, None)``): a moderator may hold a seat, and a running table's
    actions name cards its players may not see (a Snout! pass). Once the table is
    over, the replay shows every hand (a link), and the stored actions are there too,
    folded away, for the record."""
    over = table.status in OVER
    stored = ActionLog.objects.filter(table=table).select_related("user").order_by("version") if over else ()
    context = {"over": over,
               "stored_log": [{"version": entry.version, "seat": entry.seat, "user": entry.user,
                               "action": json.dumps(entry.action, separators=(", ", ": "))} for entry in stored],
               "replay_url": f"{reverse('table-replay', args=[table.pk])}?view=all" if over and table.state else ""}
    snapshot = load_snapshot(table.pk)
    if snapshot.state is None:
        return {**context, "spectator_log": []}
    view = snapshot.game.engine.view(snapshot.state, None)
    return {**context, "spectator_log": snapshot.page_log(view.get("log", ()))}


class OpenFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [(Report.OPEN, "Open"), (Report.RESOLVED, "Resolved"), ("all", "All")]

    def choices(self, changelist):
        value = self.value() or Report.OPEN
        for lookup, title in self.lookup_choices:
            yield {"selected": value == lookup, "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                   "display": title}

    def queryset(self, request, queryset):
        value = self.value() or Report.OPEN
        return queryset if value == "all" else queryset.filter(status=value)


@admin.register(Report)
class ReportAdmin(ModeratorsOnly):
    list_display = ("pk", "created_at", "reporter", "target", "reason", "room", "table_link", "status", "outcome")
    list_display_links = ("pk", "created_at")
    list_filter = (OpenFilter, "reason")
    search_fields = ("reporter__username", "target__username", "comment")
    ordering = ("-created_at",)
    fields = ("reporter", "target", "reason", "comment", "room", "table_link", "table_version", "replay_link",
              "evidence_lines",
              "created_at", "status", "outcome", "resolved_at", "act")
    readonly_fields = fields

    @admin.display(description="table")
    def table_link(self, report):
        if report.table_id is None:
            return "—"
        return format_html('<a href="{}">table {}</a>', reverse("admin:moderation_liveroom_change", args=[report.table_id]),
                           report.table_id)

    @admin.display(description="replay")
    def replay_link(self, report):
        """The reported moment in the table's replay (issue 16), once the table is over."""
        table = report.table if report.table_id is not None else None
        if table is None or table.status not in OVER or table.state is None:
            return "once the table is over"
        moment = f"?v={report.table_version}&view=all" if report.table_version else "?view=all"
        return format_html('<a href="{}{}">replay from the reported moment</a>',
                           reverse("table-replay", args=[table.pk]), moment)

    @admin.display(description="evidence (chat around the report)")
    def evidence_lines(self, report):
        if not report.evidence:
            return "no chat"
        return format_html("<ol>{}</ol>", format_html_join(
            "", "<li>{}<b>{}</b>: {} {}</li>",
            (("▶ reported: " if line["id"] == report.line_id else "", line["from"], line["text"],
              _link("remove-chat", line["id"], "remove", next=reverse("admin:moderation_report_change", args=[report.pk]))
              if line["from"] == report.target.get_username() else "")
             for line in report.evidence)))

    @admin.display(description="actions")
    def act(self, report):
        here = reverse("admin:moderation_report_change", args=[report.pk])
        links = [_link("timeout", report.target_id, f"Time out {report.target}", next=here),
                 _link("ban", report.target_id, f"Ban {report.target}", next=here)]
        if report.table_id is not None:
            links.append(format_html('<a class="button" href="{}">Open the table</a>',
                                     reverse("admin:moderation_liveroom_change", args=[report.table_id])))
        if report.status == Report.OPEN:
            links.append(_link("resolve-report", report.pk, "Resolve", next=reverse("admin:moderation_report_changelist")))
        return format_html_join(" ", "{}", ((link,) for link in links))


def _on_authors(request, queryset, title: str, run, permission: str):
    """An admin action on the authors of the chosen chat lines: first a page asking the
    reason (required, logged), then one service call per author; each refusal (already
    banned, yourself) is named in a message, the others go through."""
    authors = {line.author_id: line.author for line in queryset.select_related("author")}
    names = sorted(author.get_username() for author in authors.values())
    error = ""
    if request.POST.get("apply"):
        try:
            reason = services.clean_reason(request.POST.get("reason"))
        except TableError as refusal:
            error = refusal.message
        else:
            done = []
            for author in sorted(authors.values(), key=lambda author: author.get_username()):
                try:
                    done.append(run(request.user, author.pk, reason).target)
                except TableError as refusal:
                    messages.warning(request, f"{title}: {author.get_username()} — {refusal.message}")
            if done:
                messages.success(request, f"{title}: {', '.join(done)} — logged.")
            return None  # back to the list
    context = {**admin.site.each_context(request), "title": title, "names": names, "error": error,
               "reason": request.POST.get("reason", ""), "action_name": request.POST.get("action", ""),
               "selected": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME), "opts": ChatLine._meta,
               "permission": permission}
    return TemplateResponse(request, "admin/moderation/authors_action.html", context, status=400 if error else 200)


@admin.register(ChatLine)
class ChatLineAdmin(ModeratorsOnly):
    list_display = ("pk", "created_at", "room", "author", "shown_text", "remove")
    list_filter = ("room",)
    search_fields = ("author__username", "text", "room")
    ordering = ("-id",)
    actions = ["ban_authors", "time_out_authors"]

    def has_ban_player_permission(self, request):
        return is_moderator(request.user, "ban_player")

    def has_timeout_player_permission(self, request):
        return is_moderator(request.user, "timeout_player")

    @admin.action(description="Ban the author(s)", permissions=["ban_player"])
    def ban_authors(self, request, queryset):
        return _on_authors(request, queryset, "Ban the author(s)", services.ban_player, "ban_player")

    @admin.action(description="Time out the author(s) 1 h", permissions=["timeout_player"])
    def time_out_authors(self, request, queryset):
        return _on_authors(request, queryset, "Time out the author(s) 1 h",
                           lambda user, pk, reason: services.time_out(user, pk, 60, reason), "timeout_player")

    @admin.display(description="text")
    def shown_text(self, line):
        return format_html("<s>{}</s> ({})", line.text, REMOVED_TEXT) if line.removed_at else line.text

    @admin.display(description="")
    def remove(self, line):
        return "" if line.removed_at else _link("remove-chat", line.pk, "remove", next=reverse("admin:moderation_chatline_changelist"))


class PlayerForm(forms.Form):
    """A player looked up by username: a name that matches no one is refused, naming the
    players whose names come close."""

    username = forms.CharField(label="Player (username)", max_length=150,
                               widget=forms.TextInput(attrs={"autocomplete": "off", "autofocus": True}))
    reason = forms.CharField(label="Reason", max_length=ModAction._meta.get_field("reason").max_length,
                             help_text="Required. Logged in the mod log.")

    def clean_username(self):
        typed = self.cleaned_data["username"].strip()
        users = get_user_model().objects
        found = users.filter(username__iexact=typed).first()
        if found is None:
            close = list(users.filter(username__icontains=typed).order_by("username")
                         .values_list("username", flat=True)[:5]) if typed else []
            raise forms.ValidationError(f"No player is named “{typed}”."
                                        + (f" Did you mean: {', '.join(close)}?" if close else ""))
        return found


class TimeoutForm(PlayerForm):
    minutes = forms.TypedChoiceField(label="For", coerce=int, initial=60,
                                     choices=list(services.TIMEOUT_MINUTES.items()))


class AddThroughService(ModeratorsOnly):
    """"Add" here is a moderator action on a player looked up by name (``PlayerForm``),
    done by the service (logged, live), never a raw row."""

    form_class: type[PlayerForm] = PlayerForm
    permission = ""
    verb = ""

    def has_add_permission(self, request):
        return is_moderator(request.user, self.permission)

    def act(self, user, form) -> ModAction:
        raise NotImplementedError

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            return refused(request)
        form = self.form_class(request.POST or None)
        status = 200
        if request.method == "POST":
            if form.is_valid():
                try:
                    logged = self.act(request.user, form)
                except TableError as refusal:
                    form.add_error(None, refusal.message)
                else:
                    messages.success(request, f"{self.verb}: {logged.target} — logged.")
                    return HttpResponseRedirect(reverse(f"admin:moderation_{self.opts.model_name}_changelist"))
            status = 400
        context = {**self.admin_site.each_context(request), "opts": self.opts, "title": self.verb, "form": form,
                   "verb": self.verb}
        return TemplateResponse(request, "admin/moderation/player_action.html", context, status=status)


@admin.register(Ban)
class BanAdmin(AddThroughService):
    list_display = ("user", "reason", "created_at", "lifted_at", "lift")
    search_fields = ("user__username",)
    permission = "ban_player"
    verb = "Ban a player"

    def act(self, user, form):
        return services.ban_player(user, form.cleaned_data["username"].pk, form.cleaned_data["reason"])

    @admin.display(description="")
    def lift(self, ban):
        return "" if ban.lifted_at else _link("lift-ban", ban.user_id, "lift", next=reverse("admin:moderation_ban_changelist"))


@admin.register(ChatTimeout)
class ChatTimeoutAdmin(AddThroughService):
    list_display = ("user", "until", "reason", "created_at")
    search_fields = ("user__username",)
    form_class = TimeoutForm
    permission = "timeout_player"
    verb = "Time out a player's chat"

    def act(self, user, form):
        data = form.cleaned_data
        return services.time_out(user, data["username"].pk, data["minutes"], data["reason"])


@admin.register(ModAction)
class ModActionAdmin(ModeratorsOnly):
    """The mod log: append-only, for superusers too (no add, change or delete here)."""

    list_display = ("at", "moderator", "action", "target", "reason")
    list_filter = ("action",)
    search_fields = ("moderator__username", "target", "reason")

    def get_urls(self):
        return [path("act/<slug:name>/<int:pk>/", action_view, name="moderation_act"), *super().get_urls()]
