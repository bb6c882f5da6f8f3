from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from accounts.ratelimit import register_invite_check
        from core import publish
        from play import clock

        from . import signals  # noqa: F401 - connects the receivers
        from .push_topics import on_news, register_topics
        from .services.invitations import link_is_live
        from .services.refereeing import clock_keeper

        # The core's one clock ends a duel at its time limit, and must lock, check and settle
        # it as the tournament does for any duel's write (lifecycle: the round, the
        # standings); `duels` may not import the tournament's lifecycle, so it is told here.
        clock.keep(clock_keeper)

        # A sign-up on its way to a live claim link or role invitation is not rate-limited
        # (a venue shares one address); accounts cannot import tournaments, so it is told here.
        register_invite_check(
            lambda request: link_is_live(
                (request.POST.get("next") or request.GET.get("next") or "")[:500]
            )
        )

        # Push (issue 28): a running duel's move reaches the room's screens, and the topics
        # a page may follow are checked here when its stream's token is renewed.
        publish.listen(on_news)
        register_topics()
