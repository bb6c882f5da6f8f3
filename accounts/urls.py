from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("notifications/", views.notifications, name="notifications"),
    path("", include("django.contrib.auth.urls")),
]
