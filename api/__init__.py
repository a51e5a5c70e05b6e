"""The REST API (Django REST framework) under /api/v1/: thin views over the tournament services."""
