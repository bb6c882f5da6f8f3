from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before Django's own URLs: the sign-in view, paced for an account guessed from many
    # addresses (accounts.signin.paced).
    path("login/", views.sign_in, name="login"),
    # Before Django's own URLs, so that this (rate-limited) view answers the reset form.
    path("password_reset/", views.password_reset, name="password_reset"),
    # Before Django's own URLs: a new password also resets the sign-in pacing.
    path(
        "reset/<uidb64>/<token>/",
        views.ResetPasswordConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/on/", views.notifications_on, name="notifications_on"),
    path("", include("django.contrib.auth.urls")),
]
