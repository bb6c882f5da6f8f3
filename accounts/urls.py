from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before Django's own URLs, so that this (rate-limited) view answers the reset form.
    path("password_reset/", views.password_reset, name="password_reset"),
    path("notifications/", views.notifications, name="notifications"),
    path("", include("django.contrib.auth.urls")),
]
