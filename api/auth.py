"""Placeholder: the tablet device-token authentication (replaced by the API work)."""
from rest_framework.authentication import BaseAuthentication


class DeviceTokenAuthentication(BaseAuthentication):
    def authenticate(self, request):  # type: ignore[no-untyped-def]
        return None
