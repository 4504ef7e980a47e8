import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# The apps are loaded: refuse to serve with a hook no app has answered (core.hooks).
from core.hooks import require_answers  # noqa: E402

require_answers()
