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


def test_a_queue_gives_its_messages_by_priority_then_in_the_order_sent(tmp_path):
    """As Redis takes them: priority 0 (sent without one) first, 9 (the alerts' e-mails) last
    (issue 33: kombu's own queue gave a report after the 850 e-mails queued before it)."""
    sent = [("mail", 9), ("mail", 9), ("report", None), ("rule", 0), ("mail", 9), ("late", 3)]
    with _connection(tmp_path) as connection:
        channel = connection.default_channel
        for n, (name, priority) in enumerate(sent):
            properties = {} if priority is None else {"priority": priority}
            channel._put("jobs", {"task": name, "n": n, "properties": properties})
        taken = [(m["task"], m["n"]) for m in (channel._get("jobs") for _ in sent)]
    assert taken == [("report", 2), ("rule", 3), ("late", 5), ("mail", 0), ("mail", 1), ("mail", 4)]


def test_the_filesystem_url_without_a_host_raises_no_warning(tmp_path, caplog):
    """`make run`'s demo sends tasks: kombu warned "No hostname was supplied" on each command."""
    with caplog.at_level("WARNING", logger="kombu.connection"), _connection(tmp_path) as connection:
        connection.default_channel._put("jobs", {"task": "x", "args": [1]})
        assert connection.info()["hostname"] is None  # what kombu reads when it describes the connection
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]
