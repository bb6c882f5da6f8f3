from django.urls import path

from . import views

app_name = "practice"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:practice_id>/", views.table, name="table"),
    path("<int:practice_id>/move/", views.move, name="move"),
]
