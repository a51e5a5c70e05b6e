"""Serializers: one module per part of the API (people, events, devices, boards, public, auth, errors).

They validate requests and shape answers; they never decide anything a service decides.
"""
