"""What the tests of the server-drawn pages share: a client signed in as an employee (at a site), a page's
text, and the access rule of a page opened by some roles only (the others get a 403 naming the
rule and who may)."""

from axes.models import AccessAttempt
from django.test import Client


def as_user(client: Client, employee) -> Client:
    client.force_login(employee.user)
    return client


def at_site(client: Client, employee, site) -> Client:
    """`client` signed in as `employee` with `site` as the current site (the site switcher's)."""
    from cardroom.access import SESSION_KEY

    client.force_login(employee.user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    return client


def page(response) -> str:
    """The page's text, apostrophes unescaped (refusals are sentences)."""
    return response.content.decode().replace("&#x27;", "'")


def assert_opens_only_for(response, *, allowed: bool, refusal: str) -> None:
    """200 when the role may open the page; otherwise 403 with the refusal's words."""
    if allowed:
        assert response.status_code == 200
    else:
        assert response.status_code == 403
        assert refusal in page(response)


def lock_login(username: str, failures: int = 5) -> None:
    """The login's failed sign-ins as django-axes records them (5: locked out)."""
    AccessAttempt.objects.create(
        username=username,
        ip_address="127.0.0.1",
        user_agent="test",
        http_accept="*/*",
        path_info="/login/",
        get_data="",
        post_data="",
        failures_since_start=failures,
    )


def form_token(html: str, form_id: str) -> str:
    """The one-time token (core.form_tokens) drawn in the form `form_id` of a page."""
    import re

    form = html.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]
    return re.search(r'name="form_token" value="([0-9a-f-]{36})"', form).group(1)
