from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("new/", views.create, name="create"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/publish/", views.publish, name="publish"),
    path("<slug:slug>/entrants/", views.entrants, name="entrants"),
    path("<slug:slug>/entrants/<int:entrant_id>/claim-link/", views.issue_claim,
         name="issue_claim"),
    path("<slug:slug>/claim/<str:token>/", views.claim, name="claim"),
    path("<slug:slug>/people/", views.people, name="people"),
    path("<slug:slug>/people/<int:grant_id>/revoke/", views.revoke, name="revoke"),
]
