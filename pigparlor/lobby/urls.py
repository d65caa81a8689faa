from django.urls import path

from pigparlor.lobby import views

urlpatterns = [
    path("", views.home, name="home"),
]
