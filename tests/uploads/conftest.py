import pytest
from django.contrib.auth.models import Group

from accounts.roles import ARBITERS, RATING_OFFICERS
from tests.conftest import DATA

ECF_EXAMPLE = (DATA / "ecf" / "example-ecf-results.txt").read_bytes()


@pytest.fixture
def arbiter(django_user_model):
    user = django_user_model.objects.create_user("arbiter", password="pw")
    user.groups.add(Group.objects.get(name=ARBITERS))
    return user


@pytest.fixture
def other_arbiter(django_user_model):
    user = django_user_model.objects.create_user("other", password="pw")
    user.groups.add(Group.objects.get(name=ARBITERS))
    return user


@pytest.fixture
def officer(django_user_model):
    user = django_user_model.objects.create_user("officer", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name=RATING_OFFICERS))
    return user


def ecf_file(**changes):
    """The spec's example ECF file with fields replaced, e.g. submission_index=2."""
    text = ECF_EXAMPLE.decode()
    for name, value in changes.items():
        field = "#" + name.upper().replace("_", " ") + "="
        start = text.index(field) + len(field)
        end = text.index("\n", start)
        text = text[:start] + str(value) + text[end:]
    return text.encode()
