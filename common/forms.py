"""The site's form renderer: Django's, with its commonest widgets (inputs and menus) written by
string joining.

Django writes each widget through two or three templates (the widget's, its attributes', each
option's): the calculator's twenty-odd fields took a fifth of its page's time that way. The
markup is Django's own, byte for byte (tests/test_form_renderer.py compares them); any other
template (radio buttons, a form's layout, an error list, the admin's widgets) is Django's.
"""

from html import escape

from django.forms.renderers import DjangoTemplates
from django.utils.safestring import SafeData

WIDGETS = "django/forms/widgets/"
# The widgets whose template is input.html alone.
INPUTS = frozenset(
    f"{WIDGETS}{name}.html"
    for name in (
        "input",
        "checkbox",
        "color",
        "date",
        "datetime",
        "email",
        "file",
        "hidden",
        "number",
        "password",
        "search",
        "tel",
        "text",
        "time",
        "url",
    )
)
SELECT = f"{WIDGETS}select.html"
OPTION = f"{WIDGETS}select_option.html"


def text(value) -> str:
    """A value as the templates write it: as a string, escaped unless marked safe."""
    return str(value) if isinstance(value, SafeData) else escape(str(value))


def attributes(attrs: dict) -> str:
    """What attrs.html writes: `` name="value"``, `` name`` for True, nothing for False."""
    return "".join(
        f" {text(name)}" if value is True else f' {text(name)}="{text(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def input_html(widget: dict) -> str:
    value = "" if widget["value"] is None else f' value="{text(widget["value"])}"'
    return f'<input type="{text(widget["type"])}" name="{text(widget["name"])}"{value}{attributes(widget["attrs"])}>'


def select_html(widget: dict) -> str:
    parts = [f'<select name="{text(widget["name"])}"{attributes(widget["attrs"])}>']
    for group, options, _ in widget["optgroups"]:
        if group:
            parts.append(f'\n  <optgroup label="{text(group)}">')
        parts.extend(
            f'\n  <option value="{text(option["value"])}"{attributes(option["attrs"])}>'
            f"{text(option['label'])}</option>\n"
            for option in options
        )
        if group:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


class WidgetRenderer(DjangoTemplates):
    def render(self, template_name, context, request=None):
        widget = context.get("widget")
        if template_name in INPUTS:
            return input_html(widget)
        if template_name == SELECT and all(
            option["template_name"] == OPTION for _, options, _ in widget["optgroups"] for option in options
        ):
            return select_html(widget)
        return super().render(template_name, context, request)
