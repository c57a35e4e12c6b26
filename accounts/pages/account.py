"""Each user's account page: their password and e-mail address (a new one confirmed from a link
mailed to it), and the point where the mails they choose to get are set."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.links import LinkRefused, email_change_of
from accounts.pages.forms import EmailChangeForm
from accounts.services.addresses import AddressRefused, confirming, do_ask_for_email_change, do_change_email
from common.cache import within_rate

TRIES_AN_HOUR = 10  # of the e-mail form, whose password a thief of a session could guess at


@login_required
def account(request, form=None):
    context = {"email_form": form or EmailChangeForm(request.user)}
    return render(request, "accounts/account.html", context, status=400 if form else 200)


@login_required
@require_POST
def change_email(request):
    form = EmailChangeForm(request.user, request.POST)
    if not within_rate(f"email-form:{request.user.pk}", TRIES_AN_HOUR, 3600)[0]:
        form.is_valid()
        form.add_error(None, "Too many tries: please try again in an hour.")
        return account(request, form)
    if not form.is_valid():
        return account(request, form)
    try:
        do_ask_for_email_change(request.user, form.cleaned_data["email"], acting_user=request.user)
    except AddressRefused as refused:
        form.add_error("email", str(refused))
        return account(request, form)
    messages.success(
        request,
        f"A link to confirm it is mailed to {form.cleaned_data['email']}: your address changes when you follow it.",
    )
    return redirect("account")


def confirm_email(request, token):
    """The link mailed to the new address: shown on GET (a mail program that opens links changes
    nothing), made on POST."""
    try:
        payload = email_change_of(token)
        user = confirming(payload)
        if request.method == "POST":
            do_change_email(payload, acting_user=user)  # the owner of the new address
            messages.success(
                request, f"The account {user.get_username()} now has the e-mail address {payload['email']}."
            )
            # Its account page only to the account itself: a browser logged in to another account
            # would read the change under that account's own address.
            return redirect("account" if request.user.pk == user.pk else "login")
    except LinkRefused as refused:
        return render(request, "accounts/email_confirm.html", {"refused": str(refused)}, status=400)
    return render(request, "accounts/email_confirm.html", {"account": user, "email": payload["email"]})
