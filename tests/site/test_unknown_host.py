"""A phone that uses a name the laptop does not serve gets the German 400
page, not a server error (the host is refused before any middleware has
set the visitor)."""

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@override_settings(ALLOWED_HOSTS=["laptop.local"], DEBUG=False)
def test_an_unknown_host_gets_the_400_page():
    client = Client(HTTP_HOST="evil.example", raise_request_exception=False)
    response = client.get("/")
    assert response.status_code == 400
    assert "Ungültige Anfrage" in response.content.decode()
