"""Settings modules: ``base`` (shared, from the environment), ``local`` (make run), ``test`` and
``production`` (refuses to start without DJANGO_SECRET_KEY)."""
