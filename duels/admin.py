from django.contrib import admin

from .models import Duel, Result


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
        "game",
    )


admin.site.register(Result)
