from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .forms import SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Your account is ready.")
        return redirect("dashboard")
    return render(
        request, "registration/signup.html", {"form": form}, status=422 if form.errors else 200
    )


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    """The person's opt-in to e-mail notifications (issue 16), on their account pages."""
    from .forms import NotificationsForm

    form = NotificationsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request,
            "E-mail notifications are on."
            if form.instance.notify_by_email
            else "E-mail notifications are off.",
        )
        return redirect("notifications")
    return render(
        request,
        "registration/notifications.html",
        {"form": form},
        status=422 if form.errors else 200,
    )
