from django.urls import path

from mails import views

# Under /accounts/, beside the accounts' own pages.
urlpatterns = [path("mails/", views.mail_choices, name="mail-choices")]
