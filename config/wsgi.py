import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def freeze_what_lives_as_long_as_the_process():
    """Load the URLconf and compile every template now, then freeze: the objects of a started
    process (settings, apps, models, routes, templates) live as long as it, and frozen, a full
    collection no longer walks them: it paused one request in a few hundred (76 ms once in 200,
    in process; docs/page-costs.md)."""
    from django.conf import settings
    from django.template.loader import get_template
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view
    templates = settings.BASE_DIR / "templates"
    for path in templates.rglob("*.html"):
        get_template(path.relative_to(templates).as_posix())
    gc.collect()
    gc.freeze()


freeze_what_lives_as_long_as_the_process()
