from django.contrib import admin

from .models import CasualTable


@admin.register(CasualTable)
class CasualTableAdmin(admin.ModelAdmin):
    list_display = ("pk", "title", "owner", "ruleset", "created_at")
    list_filter = ("ruleset",)
    search_fields = ("owner__username",)
    # Moves are written only through tables.services (the table core's write path): the admin
    # reads tables, never edits them.
    readonly_fields = [f.name for f in CasualTable._meta.fields]

    def has_add_permission(self, request) -> bool:  # noqa: ANN001 - Django's signature
        return False
