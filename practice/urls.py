from django.urls import path

from . import game_views, online_deal, online_views, views

app_name = "practice"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:practice_id>/", views.table, name="table"),
    path("<int:practice_id>/move/", views.move, name="move"),
    path("games/", game_views.index, name="games"),
    path("games/<int:game_id>/", game_views.table, name="game"),
    path("games/<int:game_id>/move/", game_views.move, name="game_move"),
    # Online tables with friends (issue 31; docs/online.md).
    path("online/new/", online_views.new, name="online_new"),
    path("online/<int:table_id>/", online_views.table, name="online"),
    path("online/<int:table_id>/poll/", online_views.poll, name="online_poll"),
    path("online/<int:table_id>/lobby/", online_views.lobby_action, name="online_lobby"),
    path("online/<int:table_id>/move/", online_views.move, name="online_move"),
    path("online/<int:table_id>/resign/", online_views.resign, name="online_resign"),
    path("online/<int:table_id>/end/", online_views.end, name="online_end"),
    path("online/<int:table_id>/rematch/", online_views.rematch, name="online_rematch"),
    path("online/<int:table_id>/deal/", online_deal.deal, name="online_deal"),
    path("online/join/<str:token>/", online_views.join, name="online_join"),
    path(
        "online/<int:table_id>/remove/<int:player_id>/",
        online_views.remove,
        name="online_remove",
    ),
    path("online/<int:table_id>/beat/", online_views.beat, name="online_beat"),
    path("online/<int:table_id>/watch-link/", online_views.watch_link, name="online_watch_link"),
    path("online/watch/<str:token>/", online_views.watch, name="online_watch"),
    path("online/watch/<str:token>/poll/", online_views.watch_poll, name="online_watch_poll"),
]
