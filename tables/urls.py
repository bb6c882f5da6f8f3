from django.urls import path

from . import views

app_name = "tables"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:table_id>/", views.console, name="console"),
    path("<int:table_id>/poll/", views.poll, name="poll"),
    path("<int:table_id>/move/", views.move, name="move"),
    path("<int:table_id>/undo/", views.undo, name="undo"),
    path("<int:table_id>/end/", views.end, name="end"),
    path("<int:table_id>/record/", views.record, name="record"),
    path("<int:table_id>/sharing/", views.sharing, name="sharing"),
    path("<int:table_id>/share/", views.share, name="share"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("replay/<str:token>/", views.replay, name="replay"),
]
