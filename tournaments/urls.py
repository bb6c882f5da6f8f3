from django.urls import path

from .views import checkin, invitations
from .views import home as views
from .views.organiser import overview

app_name = "tournaments"

urlpatterns = [
    path("new/", views.create, name="create"),
    path("<slug:slug>/", views.detail, name="detail"),
    # Publishing is an organiser action; this address stays for the overview's button.
    path("<slug:slug>/publish/", overview.publish, name="publish"),
    path("<slug:slug>/entrants/", views.entrants, name="entrants"),
    path("<slug:slug>/claim/<str:token>/", invitations.claim, name="claim"),
    path("<slug:slug>/invite/<str:token>/", invitations.invite, name="invite"),
    path("<slug:slug>/check-in/", checkin.check_in_myself, name="check_in"),
    path("<slug:slug>/check-in/undo/", checkin.undo_my_check_in, name="undo_check_in"),
    path("<slug:slug>/people/", views.people, name="people"),
]
