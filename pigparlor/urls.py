from allauth.account import views as allauth_views
from django.contrib import admin
from django.urls import include, path

from pigparlor.accounts.views import entrance

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before allauth's own: a guest may log in or sign up (pigparlor/accounts/guests.py).
    path("accounts/login/", entrance(allauth_views.login), name="account_login"),
    path("accounts/signup/", entrance(allauth_views.signup), name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("", include("pigparlor.lobby.urls")),
    path("", include("pigparlor.accounts.urls")),
    path("", include("pigparlor.pwa.urls")),
    path("", include("pigparlor.tables.urls")),
    path("", include("pigparlor.ratings.urls")),
    path("", include("pigparlor.tournaments.urls")),
    path("", include("pigparlor.moderation.urls")),
    path("api/", include("pigparlor.api.urls")),
]
