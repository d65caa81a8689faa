from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("pigparlor.lobby.urls")),
    path("", include("pigparlor.accounts.urls")),
    path("", include("pigparlor.pwa.urls")),
    path("", include("pigparlor.tables.urls")),
    path("", include("pigparlor.ratings.urls")),
    path("", include("pigparlor.tournaments.urls")),
    path("api/", include("pigparlor.api.urls")),
]
