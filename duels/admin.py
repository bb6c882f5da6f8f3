from django.contrib import admin

from .models import Duel, DuelEvent, Result


class EventInline(admin.TabularInline):
    model = DuelEvent
    fields = ("seq", "payload", "created_by", "created_at", "undone_at")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Duel)
class DuelAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "stage", "round", "seat_a", "seat_b", "status")
    list_filter = ("kind", "status")
    raw_id_fields = (
        "seat_a",
        "seat_b",
        "group_a",
        "group_b",
        "referee",
        "replay_of",
        "round",
        "tournament",
    )
    inlines = [EventInline]


admin.site.register(Result)
