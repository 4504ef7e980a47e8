"""django-simple-history's `Model.history` descriptor builds a new manager class on every read
(`HistoryManager.from_queryset(HistoricalQuerySet)`, which inspects every method of the query
set), and every save of a model with history reads it once: about a tenth of the time of a
test that writes records went there. The class it builds depends only on the two classes it is
given, so it is built once per pair and kept; each read still gets a new manager for its
instance, as before."""

from functools import cache

from simple_history.manager import HistoryDescriptor


@cache
def _manager_class(manager_class, queryset_class):
    return manager_class.from_queryset(queryset_class)


def _get(self, instance, owner):
    return _manager_class(self.manager_class, self.queryset_class)(self.model, instance)


def build_managers_once() -> None:
    HistoryDescriptor.__get__ = _get
