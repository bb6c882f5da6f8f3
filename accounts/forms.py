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


class InviteForm(forms.Form):
    label = forms.CharField(
        max_length=80,
        required=False,
        label="For (a name to recognise the link by)",
        help_text="Optional; printed on the sheet. The person chooses their own username.",
    )
    role = forms.ChoiceField(choices=[("referee", "Referee"), ("co_organiser", "Co-organiser")])
