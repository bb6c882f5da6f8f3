from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from .forms import SignUpForm


def safe_next(request: HttpRequest) -> str:
    """The `next` address a sign-up or sign-in carries (a claim or invitation link, say),
    if it stays on this site; "" otherwise."""
    address = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME) or ""
    if url_has_allowed_host_and_scheme(
        address, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return address
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_address = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_address or "dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Your account is ready.")
        return redirect(next_address or "dashboard")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_address},
        status=422 if form.errors else 200,
    )
