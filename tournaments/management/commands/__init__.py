"""manage.py commands: ``demo`` (make run) and ``outbox_sweep`` (operations)."""
