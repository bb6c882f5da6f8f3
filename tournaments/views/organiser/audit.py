"""The audit log, filtered and paged."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse

from accounts.permissions import Action
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    AuditFilterForm,
)
from tournaments.models import (
    AuditEntry,
    Tournament,
)

from ._common import (
    base_context,
    entry_rows,
    render_page,
)


@tournament_view(Action.VIEW_AUDIT_LOG)
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
    actions = sorted(set(entries.values_list("action", flat=True)))
    actors = sorted(
        {
            (pk, name)
            for pk, name in entries.exclude(actor=None).values_list("actor_id", "actor__username")
        },
        key=lambda a: a[1].casefold(),
    )
    form = AuditFilterForm(request.GET or None, actions=actions, actors=actors)
    if form.is_valid():
        if form.cleaned_data["action"]:
            entries = entries.filter(action=form.cleaned_data["action"])
        who = form.cleaned_data["who"]
        if who == "automation":
            entries = entries.filter(actor__isnull=True)
        elif who:
            entries = entries.filter(actor_id=int(who))
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = base_context(request, tournament, "audit")
    context.update(
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "rows": entry_rows(tournament, page.object_list),
        }
    )
    return render_page(request, "organiser/audit.html", context, partial="log")
