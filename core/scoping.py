"""Who may see what, asked from below: the platform's API toolkit scopes its querysets by the
user's access (`cardroom.access`, the layer above), registered as the `access` hook."""

from .hooks import ACCESS


def access_for(user):
    """The user's access (their employee, roles and sites): the `access` hook's answer."""
    return ACCESS(user)
