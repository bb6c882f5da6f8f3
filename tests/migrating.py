"""A data migration run as a database meets it: the database migrated back to just before it,
rows written with the models as they stood there (`convert(old_apps)`), then migrated forward
to where the suite runs. Tests using it need ``django_db(transaction=True)``: a schema change
cannot run inside the test's transaction. (Practice's own, which moves only practice back:
tests/practice/migrating.py.)"""

from collections.abc import Callable

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_around(app: str, name_end: str, convert: Callable[[Apps], None]) -> None:
    """Runs `convert(old_apps)` just before `app`'s migration whose name ends with `name_end`
    (found by its end: a migration may be renumbered when branches are merged), then applies
    every migration again."""
    executor = MigrationExecutor(connection)
    (ours,) = (
        key for key in executor.loader.graph.nodes if key[0] == app and key[1].endswith(name_end)
    )
    before = sorted(parent.key for parent in executor.loader.graph.node_map[ours].parents)
    executor.migrate(before)
    convert(executor.loader.project_state(before).apps)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to where the suite runs
