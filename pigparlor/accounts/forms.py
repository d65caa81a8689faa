from django import forms

from pigparlor.accounts.models import Profile


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name"]

    def clean_display_name(self):
        return " ".join(self.cleaned_data["display_name"].split())
