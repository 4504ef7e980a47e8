"""The embedded Celery broker (`filesystem://`, for `make run` and the SQLite test run) with one
change to kombu's: a message file appears in the queue folder only once it is whole.

kombu's filesystem transport opens `<queue folder>/<name>.msg` and then writes the message; a
worker polling the same folder can move and read the file in between (its lock is advisory, a
move ignores it) and then stops on an empty message ("Unrecoverable error: JSONDecodeError").
Here the message is written under a name the queue does not read (`.part` after `.msg`) and
renamed into place, which is atomic within one filesystem. Production uses Redis."""

import os
import uuid
from time import monotonic

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

PART = ".part"  # a queue reads `<stamp>_<uuid>.<queue>.msg` only


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
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
