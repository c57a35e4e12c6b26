"""An arbiter asks for an account: the public form, and its answer (the same whether it was
stored or the address has one waiting)."""

from django.shortcuts import redirect, render

from accounts.pages.forms import ApplicationForm
from accounts.services.applications import do_apply_for_account
from common.cache import within_rate
from common.middleware import client_address

PER_CONNECTION_A_DAY = 5  # an arbiter applies once; an office behind one address, a few times


def apply(request):
    form = ApplicationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["website"]:  # a robot: told what a person would be, nothing stored
            return redirect("account-applied")
        if not within_rate(f"applications:{client_address(request)}", PER_CONNECTION_A_DAY, 86400)[0]:
            form.add_error(None, "Too many applications from your connection today: please try again tomorrow.")
        else:
            do_apply_for_account(
                data["forenames"], data["surname"], data["email"], data["licence"], **data["identity"], acting_user=None
            )
            return redirect("account-applied")
    status = 400 if form.is_bound else 200
    return render(request, "accounts/apply.html", {"form": form}, status=status)


def applied(request):
    return render(request, "accounts/applied.html")
