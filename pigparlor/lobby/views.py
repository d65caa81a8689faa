"""The lobby: the games, each game's tables, creating, joining, leaving, starting."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.core.registry import UnknownGame, all_games, get_game
from pigparlor.accounts import guests
from pigparlor.lobby import pool
from pigparlor.lobby.forms import CreateTableForm
from pigparlor.lobby.listing import render_listing
from pigparlor.lobby.room import room_context, table_page_url
from pigparlor.lobby.rules import rules_html
from pigparlor.tables import services
from pigparlor.tables.errors import TableError
from pigparlor.tables.lessons import start_lesson
from pigparlor.tables.models import FINISHED, OPEN, RUNNING, Table
from pigparlor.tables.views import game_stylesheet


def _game_or_404(slug):
    try:
        return get_game(slug)
    except UnknownGame:
        raise Http404("no such game") from None


def _go(request, url):
    """Redirect; for htmx requests, tell htmx to navigate instead of swapping."""
    if request.headers.get("HX-Request"):
        response = redirect(url)
        response.status_code = 204
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def my_tables(user, slug: str | None = None) -> list[Table]:
    """The tables ``user`` sits at that are not over (running first), for a way back in
    (not those they left with the Leave button)."""
    if not user.is_authenticated:
        return []
    tables = Table.objects.filter(status__in=[OPEN, RUNNING], seat_set__user=user, seat_set__resigned=False)
    if slug is not None:
        tables = tables.filter(game=slug)
    return sorted(tables.distinct().order_by("-created_at"), key=lambda table: table.status != RUNNING)


def home(request):
    return render(request, "lobby/home.html", {"games": all_games(), "my_tables": my_tables(request.user)})


def game(request, slug):
    game = _game_or_404(slug)
    mine = my_tables(request.user, slug)
    return render(request, "lobby/game.html", {
        "game": game, "listing": render_listing(game), "my_tables": mine,
        "form": CreateTableForm(game=game, guest=guests.is_guest(request.user)), **pool.pool_context(game),
    })


@require_POST
def play(request, slug):
    """"Play now" against bots, at once: a casual table with every other seat a bot, its
    game dealt. A visitor becomes a guest first (pigparlor/accounts/guests.py), so the
    first tap on the home page leads straight to a first move. The bots are the game's
    easiest level; ``seats`` (optional) is how many play, bots included."""
    game = _game_or_404(slug)
    try:
        seats = pool.parse_request(game, request.POST.get("seats") or pool.default_seats(game), None).seats
        if not request.user.is_authenticated:
            guests.start_guest(request)
        table = services.create_table(host=request.user, game=slug, seats=seats, bots=seats - 1, rated=False,
                                      bot_level=game.bot_levels[0])
    except (pool.PoolRefusal, TableError) as refusal:
        messages.error(request, str(refusal) if isinstance(refusal, pool.PoolRefusal) else refusal.message)
        return redirect("lobby:game", slug)
    return redirect(_after_seating(table))


@login_required
def pool_seated(request, table_id):
    """Quick play seated the player: off to the table (htmx follows HX-Redirect)."""
    table = get_object_or_404(Table, pk=table_id, seat_set__user=request.user)
    return _go(request, _after_seating(table))


@login_required
def create(request, slug):
    game = _game_or_404(slug)
    form = CreateTableForm(request.POST or None, game=game, guest=guests.is_guest(request.user))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = services.create_table(
                host=request.user, game=slug, seats=data["seats"], bots=data["bots"],
                options=form.table_options(), private=data["private"], title=data["title"],
                rated=False if data.get("casual", True) else None, salt=request.POST.get("salt") or None,
                spectators_chat=not data["quiet_spectators"], bot_level=data["bot_level"])
        except TableError as refusal:
            form.add_error(None, refusal.message)
        else:
            return redirect(_after_seating(table))
    return render(request, "lobby/create.html", {"game": game, "form": form})


@require_POST
def learn(request, slug):
    """A first game with hints: to the learner's running one, or a new one (pigparlor/tables/lessons.py).
    A visitor becomes a guest first, as for "Play now"."""
    game = _game_or_404(slug)
    try:
        if not request.user.is_authenticated:
            guests.start_guest(request)
        table = start_lesson(request.user, game.slug)
    except TableError as refusal:
        messages.error(request, refusal.message)
        return _go(request, reverse("lobby:game", args=[game.slug]))
    return _go(request, table_page_url(table))


def _after_seating(table) -> str:
    table.refresh_from_db()
    if table.status == OPEN:
        return reverse("lobby:table", args=[table.pk])
    return table_page_url(table)


def rules(request, slug):
    game = _game_or_404(slug)
    # The game's stylesheet draws its pictures as at the table (pigparlor.lobby.rules).
    return render(request, "lobby/rules.html", {"game": game, "rules": rules_html(game),
                                                "game_stylesheet": game_stylesheet(game.slug)})


def table(request, table_id):
    """The room before the deal: who sits where, join/leave/start, the invite link.
    Once the game runs (or ended) the table page itself takes over."""
    table = get_object_or_404(Table, pk=table_id)
    if table.status in (RUNNING, FINISHED):
        return redirect(table_page_url(table))
    context = room_context(table, request.user, request.GET.get("invite"))
    if context is None:
        raise Http404("no such table")
    return render(request, "lobby/table.html", {**context, "origin": f"{request.scheme}://{request.get_host()}"})


def invite(request, code):
    table = Table.objects.filter(invite_code=code).exclude(invite_code="").first()
    if table is None:
        raise Http404("this invite link is not valid")
    return redirect(f"{reverse('lobby:table', args=[table.pk])}?invite={code}")


def _table_action(request, table_id, do):
    table = get_object_or_404(Table, pk=table_id)
    try:
        url = do(table)
    except TableError as refusal:
        messages.error(request, refusal.message)
        url = reverse("lobby:table", args=[table.pk])
        if request.POST.get("invite_code"):
            url += f"?invite={request.POST['invite_code']}"
    return _go(request, url)


@require_POST
def join(request, table_id):
    if not request.user.is_authenticated:
        return _go(request, f"{reverse('account_login')}?next={reverse('lobby:table', args=[table_id])}")

    def do(table):
        services.join_table(table, request.user, invite_code=request.POST.get("invite_code") or None,
                            salt=request.POST.get("salt") or None)
        return _after_seating(table)
    return _table_action(request, table_id, do)


@login_required
@require_POST
def leave(request, table_id):
    def do(table):
        services.leave_table(table, request.user)
        if table.status == RUNNING:
            messages.info(request, f"You left {table.display_title}: a bot plays your seat to the end.")
        return reverse("lobby:game", args=[table.game])
    return _table_action(request, table_id, do)


@login_required
@require_POST
def start(request, table_id):
    def do(table):
        services.start_table(table, request.user)
        return table_page_url(table)
    return _table_action(request, table_id, do)


@login_required
@require_POST
def decline(request, table_id):
    """"No thanks" to a rematch offer (the notifications menu, the last game's page, the
    waiting room). With ``stay`` an htmx request leaves the page where it is (its sockets
    show the change); otherwise to the game's lobby."""
    table = get_object_or_404(Table, pk=table_id)
    try:
        services.decline_rematch(table, request.user)
    except TableError as refusal:
        messages.error(request, refusal.message)
    if request.POST.get("stay") and request.headers.get("HX-Request"):
        return HttpResponse(status=204)
    return _go(request, reverse("lobby:game", args=[table.game]))


@login_required
@require_POST
def rematch(request, table_id):
    """"Play again" at a finished table: to the next game's waiting room."""
    def do(table):
        rematch, _ = services.rematch_table(table, request.user)
        return reverse("lobby:table", args=[rematch.pk])
    return _table_action(request, table_id, do)
