"""The Permissions-Policy header: the site uses none of the browser's powerful features.

The other usual headers come from Django (X-Content-Type-Options, Referrer-Policy,
Cross-Origin-Opener-Policy, X-Frame-Options) and django-csp (the Content Security Policy).
"""
from django.conf import settings
from django.utils.deprecation import MiddlewareMixin


class PermissionsPolicyMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
