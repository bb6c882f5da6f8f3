"""`{{ role|role_label }}`: a person's role in a tournament (a `permissions.Who` key:
organiser, co_organiser, referee, player) in words, in the page's language (issue 29)."""

from django import template
from django.utils.translation import gettext_lazy as _

from accounts.models import Role

register = template.Library()

_LABELS = {
    Role.ORGANISER.value: Role.ORGANISER.label,
    Role.CO_ORGANISER.value: Role.CO_ORGANISER.label,
    Role.REFEREE.value: Role.REFEREE.label,
    "player": _("Player"),
}


@register.filter
def role_label(role: str) -> str:
    """The role's label; an unknown key as it is (never an error on a page)."""
    return str(_LABELS.get(str(role), role))
