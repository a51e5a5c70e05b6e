"""Development settings for ``make run``: DEBUG on, a throwaway secret, embedded defaults."""

from .base import *  # noqa: F401,F403
from .base import env_bool

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105 (development only)

# Mail (invitations, password resets) is printed on the terminal, never sent.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
