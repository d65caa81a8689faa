from django.urls import path

from pigparlor.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.create, name="create"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="detail"),
    path("tournaments/<int:tournament_id>/register/", views.register, name="register"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("tournaments/<int:tournament_id>/checkin/", views.check_in, name="checkin"),
    path("tournaments/<int:tournament_id>/cancel/", views.cancel, name="cancel"),
]
