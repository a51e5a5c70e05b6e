"""Django app configuration for web."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
