from django.urls import path

from . import game_views, views

app_name = "practice"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:practice_id>/", views.table, name="table"),
    path("<int:practice_id>/move/", views.move, name="move"),
    path("games/", game_views.index, name="games"),
    path("games/<int:game_id>/", game_views.table, name="game"),
    path("games/<int:game_id>/move/", game_views.move, name="game_move"),
]
