from allauth.account import views as allauth_views
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from pigparlor.accounts.views import entrance
from pigparlor.ops import views as ops_views

# The admin's log-in is allauth's (a signed-out visitor is sent there), so its second factor
# and its throttle hold for the admin too (pigparlor/accounts/mfa.py).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("admin/", admin.site.urls),
    # For the operator's probes and Prometheus (docs/operations.md "Watching it run").
    path("healthz", ops_views.healthz, name="healthz"),
    path("metrics", ops_views.metrics, name="metrics"),
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
