"""Placeholder: the one error shape (replaced by the API work)."""
from rest_framework.views import exception_handler as drf_exception_handler

exception_handler = drf_exception_handler
