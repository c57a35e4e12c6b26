import pytest
from django.contrib.auth.models import Group

from accounts.roles import ARBITERS, RATING_OFFICERS


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
