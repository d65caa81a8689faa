from django.urls import path

from pigparlor.ratings import views

app_name = "ratings"

urlpatterns = [
    path("games/<slug:slug>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("ratings/", views.about, name="about"),
    path("players/<str:username>/ratings/<slug:slug>/", views.history, name="history"),
]
