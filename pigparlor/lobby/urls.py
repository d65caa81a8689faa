from django.urls import include, path

from pigparlor.lobby import views

lobby_patterns = [
    path("games/<slug:slug>/", views.game, name="game"),
    path("games/<slug:slug>/new/", views.create, name="create"),
    path("games/<slug:slug>/play/", views.play, name="play"),
    path("games/<slug:slug>/rules/", views.rules, name="rules"),
    path("games/<slug:slug>/learn/", views.learn, name="learn"),
    path("lobby/tables/<int:table_id>/", views.table, name="table"),
    path("lobby/tables/<int:table_id>/join/", views.join, name="join"),
    path("lobby/tables/<int:table_id>/leave/", views.leave, name="leave"),
    path("lobby/tables/<int:table_id>/start/", views.start, name="start"),
    path("lobby/tables/<int:table_id>/rematch/", views.rematch, name="rematch"),
    path("lobby/tables/<int:table_id>/no-thanks/", views.decline, name="decline"),
    path("lobby/tables/<int:table_id>/seated/", views.pool_seated, name="pool_seated"),
    path("invite/<str:code>/", views.invite, name="invite"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("", include((lobby_patterns, "lobby"))),
]
