"""The embedded Celery broker (`filesystem://`, for `make run` and the SQLite test run) with two
changes to kombu's: a message file appears in the queue folder only once it is whole, and a
queue gives its messages in priority order, as Redis does.

kombu's filesystem transport opens `<queue folder>/<name>.msg` and then writes the message; a
worker polling the same folder can move and read the file in between (its lock is advisory, a
move ignores it) and then stops on an empty message ("Unrecoverable error: JSONDecodeError").
Here the message is written under a name the queue does not read (`.part` after `.msg`) and
renamed into place, which is atomic within one filesystem. Production uses Redis.

kombu's filesystem queue is first in, first out: it takes the first file of the queue in name
order, and the name starts with the time sent. So a report asked for while 850 alert e-mails
waited (queued at `compliance.mail.MAIL_PRIORITY`, 9) was generated 82 s later, after all of
them (issue 33); on Redis it went first. Here the name starts with the message's priority, as
Redis takes them: 0 (every task sent without one: the reports, the rules) first, 9 (the
e-mails) last, first in first out within a priority. One queue, one worker: nothing to route.
"""

import os
import uuid
from time import monotonic_ns

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

PART = ".part"  # a queue reads `<priority>_<stamp>_<uuid>.<queue>.msg` only (no dot before the queue)


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # kombu's `_get` takes the queue's files in name order: priority (0-9), then time sent
        # (monotonic nanoseconds, zero-padded so that the names sort as numbers).
        priority = self._get_message_priority(payload)
        name = f"{priority}_{monotonic_ns():020d}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + PART
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel

    @property
    def default_connection_params(self):
        """No host: the broker is folders. (kombu's virtual transports default to 'localhost',
        and a `filesystem://` URL without one made kombu warn "No hostname was supplied" in
        every command that sent a task, `make run`'s demo among them.)"""
        return {"port": self.default_port}
