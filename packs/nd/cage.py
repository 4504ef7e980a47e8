"""North Dakota's law for the cash and chip bank, IOUs (99-01.3-03-06), redemptions, deposits (03-10), the chip inventory log: rule key -> citation.

`LIMITS`: the deposit deadline of 03-10(1), the one source of the banking days (the cage's due date,
the daily summary's and the compliance threshold `deposit.banking_days` all read it)."""

from datetime import date

from ..base import Limit

ND_03_10_DATE = date(2016, 4, 1)

CITATIONS: dict[str, str] = {
    "cage.bank_records": "ND 99-01.3-08-16(1)(a)",  # starting and ending cash and chip banks, IOU records
    "cage.ideal_bank": "ND 99-01.3-03-09(5)",  # ideal cash bank master records (08-16(3))
    "cage.ious": "ND 99-01.3-03-06",  # source, destination, amount, dates of loan and repayment, initials
    "cage.charitable_funds": "ND 99-01.3-03-06",  # the paddlewheel, pull-tab and bingo banks as IOU funds
    "cage.redemption": "ND 99-01.3-08-06(2)",  # a chip is redeemed for cash at the value it was sold for
    "cage.tips": "ND 99-01.3-08-06(2)-(3)",  # tips redeemed through cash on hand, before leaving the site
    "cage.tip_holders": "ND 99-01.3-08-06(2)",  # the tips redeemed are a dealer's and a wheel operator's
    # 08-06(2): where twenty-one is discontinued, its chips are redeemed at the business office or
    # an active site for thirty days.
    "cage.discontinued_redemption": "ND 99-01.3-08-06(2)",
    "cage.deposit": "ND 99-01.3-03-10",  # deposit by the third banking day after the activity
    "cage.deposit_verification": "ND 99-01.3-08-16(5)",  # the amount deposited, verified on a bank statement
    "cage.chip_inventory": "ND 99-01.3-03-09(6)",  # inventory records (08-16(2))
    "cage.chip_inventory_form": "SFN 17930",  # the attorney general's chip inventory form
}

LIMITS: tuple[Limit, ...] = (
    # 03-10(1): the deposit by the third banking day after the activity.
    Limit(
        "cage.deposit_banking_days",
        3,
        "the third banking day after the gaming date",
        "ND 99-01.3-03-10(1)",
        ND_03_10_DATE,
    ),
)
