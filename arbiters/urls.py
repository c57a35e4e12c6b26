from django.urls import path

from arbiters import views

urlpatterns = [
    path("", views.my_events, name="arbiter-events"),
    path("upload/", views.upload, name="arbiter-upload"),
    path("events/<int:pk>/", views.event_report, name="arbiter-event"),
    path("events/<int:pk>/submit/", views.submit, name="arbiter-submit"),
    path("events/<int:pk>/withdraw/", views.withdraw, name="arbiter-withdraw"),
    path("tokens/", views.api_tokens, name="arbiter-api-tokens"),
    path("tokens/<int:pk>/revoke/", views.revoke_api_token, name="arbiter-revoke-api-token"),
]
