from django.contrib import admin

from .models import Entrant, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ("name", "user")
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_by", "published", "created_at")
    list_filter = ("published",)
    search_fields = ("name", "slug")
    raw_id_fields = ("created_by",)
    inlines = [EntrantInline]
