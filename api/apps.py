"""Django app configuration for api."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
