from django.urls import path

from . import views, views_organiser

app_name = "tournaments"

urlpatterns = [
    path("new/", views.create, name="create"),
    path("<slug:slug>/", views.detail, name="detail"),
    # Publishing is an organiser action; this address stays for the overview's button.
    path("<slug:slug>/publish/", views_organiser.publish, name="publish"),
    path("<slug:slug>/entrants/", views.entrants, name="entrants"),
    path("<slug:slug>/claim/<str:token>/", views.claim, name="claim"),
    path("<slug:slug>/people/", views.people, name="people"),
]
