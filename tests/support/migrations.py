"""Data migrations tested on the database of the test: go to a migration,
get the models as they were there, and come back to the latest state."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def latest(app: str = "tournament") -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes(app)


def migrate(targets):
    """Migrates to `targets` and returns the apps registry of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
