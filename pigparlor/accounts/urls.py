from django.urls import path

from pigparlor.accounts import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.create_token, name="create_token"),
    path("profile/tokens/<int:token_id>/revoke/", views.revoke_token, name="revoke_token"),
    path("players/<str:username>/", views.player, name="player"),
]
