from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Role, User
from .notifications import WORDS

# The roles an organiser grants or invites to (their labels: the model's, translated).
GRANTABLE_CHOICES = [
    (Role.REFEREE.value, Role.REFEREE.label),
    (Role.CO_ORGANISER.value, Role.CO_ORGANISER.label),
]


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        label=_("E-mail address"),
        help_text=_("Optional: needed only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class GrantRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(label=_("Role"), choices=GRANTABLE_CHOICES)


class NotificationsForm(forms.ModelForm):
    """Opt-in to e-mail notifications; an address is needed to switch them on. A short label
    beside the checkbox, what is sent in its hint (the words: notifications.WORDS)."""

    class Meta:
        model = User
        fields = ["notify_by_email", "email"]
        labels = {"notify_by_email": WORDS["label"], "email": _("E-mail address")}
        help_texts = {"notify_by_email": WORDS["hint"]}

    def clean(self):
        data = super().clean()
        if data.get("notify_by_email") and not data.get("email"):
            self.add_error("email", WORDS["need_address"])
        return data


class InviteForm(forms.Form):
    label = forms.CharField(
        max_length=80,
        required=False,
        label=_("For (a name to recognise the link by)"),
        help_text=_("Optional; printed on the sheet. The person chooses their own username."),
    )
    role = forms.ChoiceField(label=_("Role"), choices=GRANTABLE_CHOICES)
