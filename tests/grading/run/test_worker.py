import pytest
from django.urls import reverse

from grading.run import workers
from tests.builders import PlayerFactory


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_real_worker_answers_from_the_same_database(celery_worker_process):
    PlayerFactory.create_batch(3)

    ok, status = workers.check_worker(timeout=30)

    assert ok, status
    assert status["mode"] == "on a separate worker"
    assert status["players"] == 3


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_status_page_shows_the_worker(celery_worker_process, admin_client):
    PlayerFactory.create_batch(2)

    response = admin_client.get(reverse("system-status"))

    assert response.status_code == 200
    assert "Rating runs work: they run on a separate worker." in response.content.decode()
    assert ", 2 players" in response.content.decode()
