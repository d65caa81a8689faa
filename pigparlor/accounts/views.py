"""The profile page: display name, record per game, finished tables, API tokens."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from pigparlor.accounts import tokens
from pigparlor.accounts.forms import ProfileForm
from pigparlor.accounts.history import finished_tables, tallies
from pigparlor.accounts.models import Profile
from pigparlor.pwa.pages import notification_settings
from pigparlor.ratings.accounts import is_bot_username, player_named
from pigparlor.ratings.pages import profile_ratings
from pigparlor.tournaments.pages import history as tournament_history


def _record(user, viewer) -> dict:
    return {"player": user, "tallies": tallies(user, viewer), "history": finished_tables(user, viewer),
            "ratings": profile_ratings(user), "is_bot": is_bot_username(user.get_username()),
            "tournaments": tournament_history(user)}


def _own_page(request, form, new_token=None):
    return render(request, "accounts/profile.html", {
        **_record(request.user, request.user), "form": form, "is_self": True,
        "tokens": tokens.list_tokens(request.user), "new_token": new_token,
        **notification_settings(request.user),
    })


@login_required
def profile(request):
    profile_row, _ = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=profile_row)
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
    raw = tokens.create(request.user)
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
