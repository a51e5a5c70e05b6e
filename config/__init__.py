"""Project configuration: settings, URLs, the Celery app, WSGI/ASGI entry points."""
