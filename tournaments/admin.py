from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from core.errors import ServiceError

from .models import Entrant, Tournament
from .services.names import check_entrant_name_free, clean_entrant_name, clean_tournament_name


def _cleaned(clean, value: str) -> str:
    try:
        return clean(value)
    except ServiceError as err:
        raise ValidationError(err.message) from None


class EntrantAdminForm(forms.ModelForm):
    """Names written in the admin are cleaned like any other (services.names); the database's
    unique key (tournament, name_key) refuses a look-alike."""

    def clean_name(self) -> str:
        name = _cleaned(clean_entrant_name, self.cleaned_data.get("name"))
        if self.instance.tournament_id:
            tournament = Tournament(pk=self.instance.tournament_id)
            _cleaned(
                lambda n: check_entrant_name_free(tournament, n, exclude_pk=self.instance.pk), name
            )
        return name


class TournamentAdminForm(forms.ModelForm):
    def clean_name(self) -> str:
        return _cleaned(clean_tournament_name, self.cleaned_data.get("name"))


class EntrantInline(admin.TabularInline):
    model = Entrant
    form = EntrantAdminForm
    fields = ("name", "user")
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ("name", "slug", "created_by", "published", "created_at")
    list_filter = ("published",)
    search_fields = ("name", "slug")
    raw_id_fields = ("created_by",)
    inlines = [EntrantInline]
