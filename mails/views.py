"""A user's choice of the role mails they receive: /accounts/mails/."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from mails.choices import choices_of, do_set_mail_choices, offered_kinds
from mails.forms import MailChoicesForm
from mails.models import Kind


@login_required
def mail_choices(request):
    user = request.user
    # Bound on every POST, even one with no box ticked: that turns every kind off.
    posted = request.POST if request.method == "POST" else None
    form = MailChoicesForm(posted, kinds=offered_kinds(user), initial=choices_of(user))
    if request.method == "POST" and form.is_valid():
        changed = do_set_mail_choices(user, form.chosen(), acting_user=user)
        if changed:
            said = "; ".join(f"{Kind(kind).label}: {'on' if form.chosen()[kind] else 'off'}" for kind in changed)
            messages.success(request, f"Saved. {said}.")
        else:
            messages.info(request, "Nothing changed.")
        return redirect("mail-choices")
    return render(request, "mails/choices.html", {"form": form, "address": user.email})
