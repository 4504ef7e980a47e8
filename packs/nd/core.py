"""North Dakota's law for organizations, sites, tables, chips, employees, retention: rule key -> citation."""

CITATIONS: dict[str, str] = {
    # 02-01: "business day": a gaming day runs from the site's start hour to the next day's.
    "core.business_day": "ND 99-01.3-02-01",
    # 08-03(1): chips may be issued only in the listed values (`packs.nd.chips`).
    "core.chip_values": "ND 99-01.3-08-03(1)",
    # 08-03(3): each value's primary colour and edge spots; no reversed combination of colours.
    "core.chip_colours": "ND 99-01.3-08-03(3)",
    # 08-03(1): "If an organization accepts a twenty-five dollar wager, it shall provide
    # twenty-five dollar chips to players for their optional use."
    "core.twenty_five_chips": "ND 99-01.3-08-03(1)",
    # 08-03(2): "Each chip must be permanently impressed, engraved, or imprinted on one side with
    # an organization's name and on the other side with the value of the chip. The name may be
    # represented by a unique identification that differentiates an organization's chips from all
    # other organizations' chips." (`packs.nd.chips`: a chip's marking is recorded.)
    "core.chip_marking": "ND 99-01.3-08-03(2)",
    # 08-03(2): the chips must meet subsection 3 at a site with video surveillance installed, or
    # whose twenty-one gross proceeds averaged $10,000 for two consecutive quarters.
    # 08-16 (opening paragraph): records are retained three years from the end of the quarter in
    # which the activity was reported; 08-16(1)(h): dealer percent-of-hold information and video
    # review documentation one year (`cardroom.retention`).
    "core.retention": "ND 99-01.3-08-16",
    "core.retention_short": "ND 99-01.3-08-16(1)(h)",
    # 08-16(1)(g): the summaries of a quarter's activity reconcile to the tax return; closed
    # books protect them (keeping them closed is the product's control: `core.closing`).
    "core.summaries_reconcile": "ND 99-01.3-08-16(1)(g)",
}
