from django.contrib import admin

from pigparlor.accounts.models import Guest, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name")
    search_fields = ("user__username", "display_name")


@admin.register(Guest)
class GuestAdmin(admin.ModelAdmin):
    """Guests (pigparlor/accounts/guests.py): who is one and since when; the address is only a hash."""

    list_display = ("user", "created_at")
    search_fields = ("user__username",)
    readonly_fields = ("user", "created_at", "address")
