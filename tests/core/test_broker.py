"""The embedded broker (core.broker): a message appears in its queue folder only whole, so a
worker polling the folder never reads a file still being written (kombu's own transport opens
the final name first, and a worker once stopped on the empty message)."""

import os

from kombu import Connection

from config.celery import app
from core import broker


def _connection(folder):
    return Connection(
        "filesystem://",
        transport=broker.Transport,
        transport_options={"data_folder_in": str(folder), "data_folder_out": str(folder), "store_processed": False},
    )


def test_the_app_uses_this_transport_whenever_its_broker_is_the_filesystem():
    assert app.conf.broker_transport == "core.broker:Transport" or not app.conf.broker_url.startswith("filesystem")


def test_a_message_is_in_the_queue_folder_only_once_whole(tmp_path, monkeypatch):
    seen_before_rename = []
    real_replace = os.replace

    def replace(source, target):  # what a polling worker could see just before the message lands
        seen_before_rename.append(sorted(os.listdir(tmp_path)))
        with open(source, "rb") as f:
            seen_before_rename.append(f.read())
        return real_replace(source, target)

    monkeypatch.setattr(broker.os, "replace", replace)
    with _connection(tmp_path) as connection:
        channel = connection.default_channel
        channel._put("jobs", {"task": "x", "args": [1]})
        names, written = seen_before_rename
        assert [n for n in names if n.endswith(".msg")] == []  # only the part file, which no queue reads
        assert len(names) == 1 and names[0].endswith(".jobs.msg" + broker.PART)
        assert written.startswith(b"{")  # the whole message was written before the rename
        assert [n for n in os.listdir(tmp_path) if n.endswith(".jobs.msg")] and not any(
            n.endswith(broker.PART) for n in os.listdir(tmp_path)
        )
        assert channel._get("jobs") == {"task": "x", "args": [1]}
