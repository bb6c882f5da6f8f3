"""Duel pages: the referee console and the public replay (mounted under /t/<slug>/duels/).

The namespace stays `duels`: every address and link is as before the console moved here."""

from django.urls import path

from .views import console as views

app_name = "duels"

urlpatterns = [
    path("", views.duel_list, name="list"),
    path("<int:duel_id>/", views.console, name="console"),
    path("<int:duel_id>/poll/", views.poll, name="poll"),
    path("<int:duel_id>/move/", views.move, name="move"),
    path("<int:duel_id>/undo/", views.undo, name="undo"),
    path("<int:duel_id>/redo/", views.redo, name="redo"),
    path("<int:duel_id>/end/", views.end, name="end"),
    path("<int:duel_id>/correct/", views.correct, name="correct"),
    path("<int:duel_id>/take/", views.take, name="take"),
    path("<int:duel_id>/record.json", views.record, name="record"),
    path("<int:duel_id>/replay/", views.replay, name="replay"),
]
