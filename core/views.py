"""The stream token view (issue 28): a page whose stream's token has expired asks here for a
fresh one, and each topic is checked again for this viewer (core.push.allowed)."""

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core import push


@require_GET
@never_cache
def stream_token(request: HttpRequest) -> JsonResponse:
    topics = request.GET.getlist("topic")[: push.MAX_TOPICS + 1]
    if not push.enabled():
        return JsonResponse({"error": _("Push is off here: the page polls.")}, status=404)
    if not topics or len(topics) > push.MAX_TOPICS:
        return JsonResponse(
            {"error": _("Name between 1 and %(max)s topics.") % {"max": push.MAX_TOPICS}},
            status=400,
        )
    refused = [t for t in topics if not push.allowed(request, t)]
    if refused:
        return JsonResponse({"error": _("Not allowed."), "topics": refused}, status=403)
    return JsonResponse(push.stream(topics))
