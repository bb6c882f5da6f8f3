from django import forms


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120, label="Tournament name")


class EntrantForm(forms.Form):
    name = forms.CharField(max_length=80, label="Player name")
