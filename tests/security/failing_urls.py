"""A URL that breaks, for the tests of what a visitor and the operator see on a 500."""
from django.urls import path


def broken(request):
    raise RuntimeError("the trough tipped over")


urlpatterns = [path("broken/", broken)]
