"""The profile page: display name, record per game, finished tables, API tokens; and the
way into allauth's log-in and sign-up pages."""
from functools import wraps

from allauth.account.utils import get_next_redirect_url
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from pigparlor.accounts import tokens
from pigparlor.accounts.forms import ProfileForm
from pigparlor.accounts.guests import is_guest
from pigparlor.accounts.history import finished_tables, tallies
from pigparlor.accounts.models import Profile
from pigparlor.pwa.pages import notification_settings
from pigparlor.ratings.accounts import is_bot_username, player_named
from pigparlor.ratings.pages import profile_ratings
from pigparlor.tables.errors import TableError
from pigparlor.tournaments.pages import history as tournament_history


def entrance(view):
    """allauth's log-in or sign-up page, open to visitors and guests (a guest's sign-up
    keeps their games); a signed-in player is sent on, as allauth would."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.user.is_authenticated and not is_guest(request.user):
            return redirect(get_next_redirect_url(request) or settings.LOGIN_REDIRECT_URL)
        return view(request, *args, **kwargs)
    return wrapped


def _record(user, viewer) -> dict:
    return {"player": user, "tallies": tallies(user, viewer), "history": finished_tables(user, viewer),
            "ratings": profile_ratings(user), "is_bot": is_bot_username(user.get_username()),
            "tournaments": tournament_history(user)}


def _own_page(request, form, new_token=None):
    if is_guest(request.user):  # no name to choose, no tokens, no notifications: a guest signs up first
        return render(request, "accounts/profile.html", {**_record(request.user, request.user), "is_self": True})
    return render(request, "accounts/profile.html", {
        **_record(request.user, request.user), "form": form, "is_self": True,
        "tokens": tokens.list_tokens(request.user), "new_token": new_token,
        **notification_settings(request.user),
    })


@login_required
def profile(request):
    profile_row, _ = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=profile_row)
    if request.method == "POST" and is_guest(request.user):
        messages.error(request, "A guest keeps their guest name: sign up to choose a name.")
        return redirect("accounts:profile")
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Display name saved.")
        return redirect("accounts:profile")
    return _own_page(request, form)


def player(request, username):
    """Anyone's public record (no tokens, no settings)."""
    user = player_named(username)
    if user is None:
        raise Http404("no such player")
    if user == request.user:
        return redirect("accounts:profile")
    profile_row = Profile.objects.filter(user=user).first()
    return render(request, "accounts/profile.html", {
        **_record(user, request.user), "is_self": False, "shown_name": (profile_row and profile_row.display_name) or username,
    })


@login_required
@require_POST
def create_token(request):
    """The raw token is shown once, in this response; the server keeps only its hash."""
    try:
        raw = tokens.create(request.user)
    except TableError as refusal:
        messages.error(request, refusal.message)
        return redirect("accounts:profile")
    profile_row, _ = Profile.objects.get_or_create(user=request.user)
    return _own_page(request, ProfileForm(instance=profile_row), new_token=raw)


@login_required
@require_POST
def revoke_token(request, token_id):
    if tokens.revoke(request.user, token_id):
        messages.success(request, "Token revoked.")
    else:
        messages.error(request, "No such token.")
    return redirect("accounts:profile")
