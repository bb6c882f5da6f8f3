"""A data migration run as a database meets it: the database migrated back to just before it,
rows written with the models as they stood there, then migrated forward to where the suite
runs. Tests using it need ``django_db(transaction=True)``: a schema change cannot run inside
the test's transaction. (Practice's own, which moves only practice back:
tests/practice/migrating.py.)"""

from collections.abc import Callable

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def before(app: str, name_end: str) -> Apps:
    """The database migrated back to just before `app`'s migration whose name ends with
    `name_end` (found by its end: a migration may be renumbered when branches are merged),
    and the models as they stood there."""
    executor = MigrationExecutor(connection)
    (ours,) = (
        key for key in executor.loader.graph.nodes if key[0] == app and key[1].endswith(name_end)
    )
    parents = sorted(parent.key for parent in executor.loader.graph.node_map[ours].parents)
    executor.migrate(parents)
    return executor.loader.project_state(parents).apps


def forward() -> None:
    """Every migration applied again: back to where the suite runs."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrate_around(app: str, name_end: str, convert: Callable[[Apps], None]) -> None:
    """Runs `convert(old_apps)` just before `app`'s migration named by `name_end`, then
    applies every migration again."""
    convert(before(app, name_end))
    forward()
