from django.urls import path

from . import views

app_name = "rulebook"

urlpatterns = [
    path("", views.split_uno, name="split_uno"),
    path("trois/", views.trois, name="trois"),
    path("cpt113/", views.cpt113, name="cpt113"),
]
