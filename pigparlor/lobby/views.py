from django.shortcuts import render

from pigparlor.tables.registry import all_games


def home(request):
    return render(request, "lobby/home.html", {"games": all_games()})
