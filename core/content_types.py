"""Moving models between apps keeps their content types' ids (the permissions and admin history
that point at them keep working): the relabelling every app move's migration runs (accounting
to floor, issue 19; cardroom to core, issue 34), given the historical ContentType model its
migration looks up."""


def relabel(content_type_model, old: str, new: str, models: list[str]) -> None:
    content_types = content_type_model.objects
    for model in models:
        moving = content_types.filter(app_label=old, model=model).first()
        if moving is None:
            continue  # a database that never created it: the new one is made after migrating
        # One already made under the new label (by a migrate run in between) is a duplicate:
        # the old one, whose id the permissions and admin history hold, wins.
        content_types.filter(app_label=new, model=model).delete()
        moving.app_label = new
        moving.save(update_fields=["app_label"])
