"""The tournament's settings, until they lock."""

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.permissions import Action
from core.errors import ServiceError
from tournaments import services
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    SettingsForm,
)
from tournaments.models import (
    Tournament,
)

from ._common import (
    REFUSED,
    base_context,
    render_page,
    succeeded,
)


@tournament_view(Action.MANAGE_SETTINGS)
@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = SettingsForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.configure(tournament, request.user, **form.changes())
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return succeeded(request, _("Settings saved."), "setup", tournament)
    context = base_context(request, tournament, "setup")
    context["form"] = form
    return render_page(
        request, "organiser/setup.html", context, status=REFUSED if form.errors else 200
    )
