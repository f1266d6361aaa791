"""The ASGI handler loads Django's middleware chain once, in sync mode (a
request enters its thread once), through ASGIHandler's own set-up."""

import pytest
from django.core.handlers.base import BaseHandler

from tests.support import edge
from tournament.core.handler import OneThreadASGIHandler


def test_the_chain_is_loaded_once_and_synchronous(monkeypatch):
    modes = []
    load = BaseHandler.load_middleware

    def spy(self, is_async=False):
        modes.append(is_async)
        return load(self, is_async)

    monkeypatch.setattr(BaseHandler, "load_middleware", spy)
    OneThreadASGIHandler()
    assert modes == [False]


@pytest.mark.django_db(transaction=True)
def test_a_request_runs_through_it(tournament):
    [(status, _headers, body)] = edge.gets(
        OneThreadASGIHandler(), (f"/t/{tournament.slug}/tabelle/",)
    )
    assert status == 200
    assert tournament.name.encode() in body
