"""A password validator Django lacks: eight spaces pass every length check but are no password."""
from django.core.exceptions import ValidationError


class NotOnlyWhitespaceValidator:
    def validate(self, password, user=None):
        if not password.strip():
            raise ValidationError("This password is only spaces.", code="password_only_whitespace")

    def get_help_text(self):
        return "Your password can't be only spaces."
