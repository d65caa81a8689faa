from django.urls import path

from pigparlor.moderation import notices

app_name = "moderation"

urlpatterns = [
    path("reports/<int:report_id>/dismiss/", notices.dismiss, name="dismiss_report"),
]
