from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional: needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class GrantRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=[("referee", "Referee"), ("co_organiser", "Co-organiser")])


class NotificationsForm(forms.ModelForm):
    """Opt-in to e-mail notifications; an address is needed to switch them on."""

    class Meta:
        model = User
        fields = ["notify_by_email", "email"]
        labels = {
            "notify_by_email": "E-mail me when I am named to play, when my duel is called to "
            "its table, when the playoffs are announced, and when I am made a referee",
            "email": "E-mail address",
        }

    def clean(self):
        data = super().clean()
        if data.get("notify_by_email") and not data.get("email"):
            self.add_error("email", "Give an address to receive notifications.")
        return data


class InviteForm(forms.Form):
    label = forms.CharField(
        max_length=80,
        required=False,
        label="For (a name to recognise the link by)",
        help_text="Optional; printed on the sheet. The person chooses their own username.",
    )
    role = forms.ChoiceField(choices=[("referee", "Referee"), ("co_organiser", "Co-organiser")])
