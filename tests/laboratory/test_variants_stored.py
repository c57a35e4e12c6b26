"""Rule variants kept in the database and listed in the admin (docs/rules.md section 15)."""

import pytest
from django.core.exceptions import ValidationError

from grading.engine import RULE_SETS
from laboratory.models import RuleVariant

pytestmark = pytest.mark.django_db


def test_a_stored_variant_is_its_base_with_its_overrides():
    variant = RuleVariant(name="wider-window", base="ecf-2024", overrides={"activity_window_months": 48})
    variant.full_clean()

    assert variant.rules.activity_window_months == 48
    assert variant.rules.adult_dummy == RULE_SETS["ecf-2024"].adult_dummy
    assert variant.spec == {"base": "ecf-2024", "activity_window_months": 48}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"windows": 48}, "windows: unknown parameter"),
        ({"windows": 48, "floor": True}, "unknown parameters windows, floor (known: "),
        ({"k_cap": 0}, "k_cap: 0 is out of range (1 to 100000)"),
        ({"floors": "yes"}, "floors: 'yes' is not true or false"),
        (["floors"], "Give an object of parameters and values"),
        ({"base": "ecf-2020"}, "The base is the field above"),
    ],
)
def test_an_unknown_parameter_or_an_absurd_value_is_refused_beside_the_field(overrides, message):
    variant = RuleVariant(name="bad", base="ecf-2024", overrides=overrides)

    with pytest.raises(ValidationError) as refused:
        variant.full_clean()
    assert message in refused.value.message_dict["overrides"][0]


def test_a_variant_may_not_take_a_rule_sets_name():
    variant = RuleVariant(name="ecf-2020", base="ecf-2024", overrides={})

    with pytest.raises(ValidationError) as refused:
        variant.full_clean()
    assert refused.value.message_dict["name"] == ["ecf-2020 is a rule set's name: give the variant its own."]


def test_a_rating_officer_adds_a_variant_in_the_admin_and_sees_it_listed(client, officer):
    client.force_login(officer)
    response = client.post(
        "/admin/laboratory/rulevariant/add/",
        {"name": "floors-48", "base": "ecf-2024", "overrides": '{"floors": true, "activity_window_months": 48}'},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = RuleVariant.objects.get(name="floors-48")
    assert (stored.created_by, stored.rules.floors) == (officer, True)

    listed = client.get("/admin/laboratory/rulevariant/").content.decode()
    assert "floors-48" in listed and "floors True, activity_window_months 48" in listed

    refused = client.post(
        "/admin/laboratory/rulevariant/add/", {"name": "bad", "base": "ecf-2024", "overrides": '{"k_cap": -1}'}
    )
    assert refused.status_code == 200 and "k_cap: -1 is out of range" in refused.content.decode()
    assert not RuleVariant.objects.filter(name="bad").exists()


def test_the_staff_home_offers_a_simulation_only_to_those_who_may_start_one(client, officer, django_user_model):
    from django.contrib.auth.models import Permission

    viewer = django_user_model.objects.create_user("viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_simulation"))

    client.force_login(viewer)
    seen = client.get("/admin/").content.decode()
    client.force_login(officer)
    officers = client.get("/admin/").content.decode()

    assert "The health of the rating pool" in seen and "Simulate a rule change" not in seen
    assert "The health of the rating pool" in officers and "Simulate a rule change" in officers
