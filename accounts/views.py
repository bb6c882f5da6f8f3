from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import LoginView, PasswordResetConfirmView, PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.htmx import redirect_after_post
from core.http import safe_next

from .forms import SignUpForm
from .language import known_language
from .notifications import WORDS, switch_on
from .ratelimit import is_invited_signup, limited
from .signin import paced, reset_pacing

# Django's sign-in view, paced for an account guessed from many addresses (accounts.signin).
sign_in = paced(LoginView.as_view())


@require_http_methods(["GET", "POST"])
@limited(
    "signup",
    identity_field="username",
    template="registration/signup.html",
    form_class=SignUpForm,
    keep=("username", "email"),
    what="sign-up attempts",
    exempt=is_invited_signup,
    # The address alone counts the accounts it created (a typo never counts).
    per_address="signup_address",
    per_address_counts=lambda request, response: getattr(request, "_signed_up", False),
    fail_open=True,  # uncounted while Redis is unreachable (operations.md, "Redis down…")
)
def signup(request: HttpRequest) -> HttpResponse:
    next_address = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_address or "dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The language the page was in (the menu's cookie or the browser's): their e-mails
        # and their next device follow it (issue 29).
        form.instance.language = known_language(translation.get_language())
        user = form.save()
        request._signed_up = True  # an account was created: counted per address
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(username)s! Your account is ready.") % {"username": user.username},
        )
        return redirect(next_address or "dashboard")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_address},
        status=422 if form.errors else 200,
    )


class ResetForm(PasswordResetForm):
    """Django's own, its e-mail in the account's language (issue 29): the one its owner
    chose, else the language of the page that asked."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        *args: Any,
        **kwargs: Any,
    ) -> None:
        user = context.get("user")
        code = known_language(getattr(user, "language", "")) or translation.get_language()
        with translation.override(code):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


# Django's own view, its POST limited per address and e-mail (accounts.ratelimit).
password_reset = limited(
    "password_reset",
    identity_field="email",
    template="registration/password_reset_form.html",
    form_class=ResetForm,
    keep=("email",),
    what="password reset requests",
    per_address="password_reset_address",
    fail_open=False,  # 503 while Redis is unreachable: the limit is what stops a mail flood
)(PasswordResetView.as_view(form_class=ResetForm))


class ResetPasswordConfirm(PasswordResetConfirmView):
    """Django's own, and a new password starts the account's sign-in pacing again
    (accounts.signin): the owner chose it from their mailbox, guesses at the old one are moot."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        reset_pacing(form.user.get_username())
        return response


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    """The person's opt-in to e-mail notifications (issue 16), on their account pages. A
    `next` on this site (the offer's link from a player's page) is where a save returns."""
    from .forms import NotificationsForm

    form = NotificationsForm(request.POST or None, instance=request.user)
    next_address = safe_next(request)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, WORDS["on" if form.instance.notify_by_email else "off"])
        return redirect(next_address or "notifications")
    return render(
        request,
        "registration/notifications.html",
        {"form": form, "next": next_address},
        status=422 if form.errors else 200,
    )


@login_required
@require_POST
def notifications_on(request: HttpRequest) -> HttpResponse:
    """The offer's one tap (a player's pages, templatetags/notify.py): notifications on, back
    to the page it was on. Safe to repeat: on is on. Without an address, the settings page
    asks for one (and comes back)."""
    next_address = safe_next(request)
    if not switch_on(request.user):
        messages.info(request, WORDS["need_address"])
        settings_page = reverse("notifications")
        if next_address:
            settings_page += "?" + urlencode({"next": next_address})
        return redirect_after_post(request, settings_page)
    messages.success(request, WORDS["on"])
    return redirect_after_post(request, next_address or reverse("notifications"))
