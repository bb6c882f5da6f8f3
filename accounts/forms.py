from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User
from .notifications import WORDS


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
    """Opt-in to e-mail notifications; an address is needed to switch them on. A short label
    beside the checkbox, what is sent in its hint (the words: notifications.WORDS)."""

    class Meta:
        model = User
        fields = ["notify_by_email", "email"]
        labels = {"notify_by_email": WORDS["label"], "email": "E-mail address"}
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
        label="For (a name to recognise the link by)",
        help_text="Optional; printed on the sheet. The person chooses their own username.",
    )
    role = forms.ChoiceField(choices=[("referee", "Referee"), ("co_organiser", "Co-organiser")])
