"""The centre's side of a site's link: the questions a site controller asks the centre (which
validation id to set, which order to send), answered from the store, and `Direct`, the link of a
site that reaches the store itself (one host: `make floor`, the tests). A site behind a broker
uses `central/broker.py` instead, whose relay applies the same messages and answers the same
questions at the centre."""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from central import cabinets, ingest, meters
from central.site import CentreUnreachable
from central.store import Key, Store, cabinet

VALIDATION_IDS: Key = ("validation-ids", "")  # the next id is the highest given plus one: one at a time


def answer(store: Store, question: dict[str, Any], now: int) -> dict[str, Any]:
    """`{"ask": "validation_id", "cabinet", "in_force"}` -> `{"give": id or None}`;
    `{"ask": "order", "cabinet"}` -> `{"order": ..., "game": ...}`, each "enabled", "disabled" or
    None: the machine's order (02/01) and its game's (09) not taken yet."""
    name = question["cabinet"]
    if question["ask"] == "validation_id":
        with store.transaction(keys=[cabinet(name), VALIDATION_IDS]) as tx:
            cabinets.add(tx, name, question.get("site", ""), now)
            return {"give": cabinets.validation_id_for(tx, name, int(question["in_force"]), now)}
    if question["ask"] == "order":
        with store.transaction(write=False) as tx:
            return {"order": cabinets.pending_order(tx, name),
                    "game": cabinets.pending_order(tx, name, target="game")}
    raise ValueError(f"no such question: {question.get('ask')!r}")


def last_seqs(store: Store, cabinet: str) -> dict[str, int]:
    """The last sequence the centre stored for a cabinet's events and snapshots."""
    with store.transaction(write=False) as tx:
        return {"event": cabinets.last_seq(tx, cabinet), "snapshot": meters.last_seq(tx, cabinet)}


class Direct:
    """A site's link straight to the store: a message is applied in its own transaction, committed
    when send() returns. The store out of reach is the centre out of reach (`CentreUnreachable`):
    the site controller polls its machines on and tries again, the machine is not at fault."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    @contextmanager
    def _reached(self) -> Iterator[None]:
        try:
            yield
        except self.store.UNREACHABLE as e:
            raise CentreUnreachable(f"the store does not answer: {type(e).__name__}") from e

    def send(self, msg: dict[str, Any]) -> bool:
        with self._reached(), self.store.transaction(keys=[cabinet(msg["cabinet"])]) as tx:
            ingest.apply(tx, msg)
        return True

    def ask(self, question: dict[str, Any]) -> dict[str, Any]:
        with self._reached():
            return answer(self.store, question, int(self.clock()))

    def last_seqs(self, site: str, cabinet: str) -> dict[str, int]:
        with self._reached():
            return last_seqs(self.store, cabinet)

    def close(self) -> None:
        pass
