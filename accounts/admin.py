from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.core.exceptions import ValidationError

from core.errors import ServiceError

from .models import TournamentRole, User
from .services import clean_display_name


class UserForm(UserChangeForm):
    """The admin writes a display name through the same cleaning as everyone else."""

    def clean_display_name(self) -> str:
        try:
            return clean_display_name(self.cleaned_data.get("display_name"))
        except ServiceError as err:
            raise ValidationError(err.message) from None


@admin.register(User)
class SplitUnoUserAdmin(UserAdmin):
    form = UserForm
    fieldsets = (*UserAdmin.fieldsets, ("Profile", {"fields": ("display_name",)}))


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ("tournament", "user", "role", "granted_by", "granted_at")
    list_filter = ("role",)
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "granted_by", "tournament")
