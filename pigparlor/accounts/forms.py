from django import forms

from pigparlor.accounts import names
from pigparlor.accounts.models import Profile


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name"]

    def clean_display_name(self):
        """Empty means "use my username"; anything else must be a name that
        cannot deceive (``names.check``): not blank-looking, not a bot's or the
        site's, not like another player's."""
        submitted = self.data.get("display_name", "")
        name = names.normalize(self.cleaned_data["display_name"])
        if not name:
            if submitted:
                raise forms.ValidationError("A name of only spaces is no name: leave the field empty "
                                            "to play under your username.")
            return ""
        name = names.check(name, user=self.instance.user)
        if len(name) > Profile._meta.get_field("display_name").max_length:
            raise forms.ValidationError("That name is too long once written out in full.")
        return name
