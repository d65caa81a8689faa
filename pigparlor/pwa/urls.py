from django.urls import path

from pigparlor.pwa import push_views, views

app_name = "pwa"

urlpatterns = [
    path("favicon.ico", views.favicon, name="favicon"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("app/", views.start, name="start"),
    path("your-tables/", views.your_tables, name="your_tables"),
    path("push/key/", push_views.public_key, name="push_key"),
    path("push/subscriptions/", push_views.subscribe, name="push_subscribe"),
    path("push/subscriptions/remove/", push_views.unsubscribe, name="push_unsubscribe"),
    path("push/devices/<int:device_id>/remove/", push_views.remove_device, name="push_remove_device"),
    path("push/kinds/", push_views.kinds, name="push_kinds"),
    path("push/badge/", push_views.badge, name="push_badge"),
    path("push/mutes/<int:user_id>/", push_views.mute, name="push_mute"),
    path("push/mutes/<int:user_id>/remove/", push_views.unmute, name="push_unmute"),
    path("lobby/tables/<int:table_id>/invite/", push_views.invite, name="invite_player"),
]
