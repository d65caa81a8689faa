from django.contrib import admin

from pigparlor.api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("prefix", "name", "user", "created_at", "last_used_at")
    search_fields = ("user__username", "prefix", "name")
    readonly_fields = ("prefix", "digest", "created_at", "last_used_at")
