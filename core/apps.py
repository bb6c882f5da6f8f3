from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"

    def ready(self) -> None:
        # Push to open pages (issue 28): the one publish point's news leaves for the stream
        # processes at commit, where push is on (core.push.enabled, checked on each change).
        from . import publish, push

        publish.listen(push.on_change)
