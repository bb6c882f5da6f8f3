"""Practice's data migrations run as a database meets them: the database migrated back to just
before one, rows written with the models as they stood there (the historical models: today's
have lost the old fields), then migrated forward to where the suite runs. Tests using it need
``django_db(transaction=True)``: a schema change cannot run inside the test's transaction."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def before(name: str) -> Apps:
    """The database migrated back to just before practice's migration ``name`` (only practice
    moves back: it is the app the data migrations write), and its models as they stood then."""
    executor = MigrationExecutor(connection)
    parents = sorted(
        parent.key
        for parent in executor.loader.graph.node_map[("practice", name)].parents
        if parent.key[0] == "practice"
    )
    executor.migrate(parents)
    return executor.loader.project_state(parents).apps


def forward() -> None:
    """Every migration applied again: the suite's schema, the data migrations run on the rows."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
