from django.apps import AppConfig


class ArbitersConfig(AppConfig):
    name = "arbiters"
    verbose_name = "Arbiters' pages"
