from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import TournamentRole, User


@admin.register(User)
class SplitUnoUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Profile", {"fields": ("display_name",)}))


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ("tournament", "user", "role", "granted_by", "granted_at")
    list_filter = ("role",)
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "granted_by", "tournament")
