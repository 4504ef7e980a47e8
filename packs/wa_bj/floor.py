"""Washington blackjack (player-banked) for table chip custody: rule key -> citation.

WAC 230-40-125(1) (1999 proposed amendment): "Fees to play Washington blackjack shall only be
assessed on a time basis and collected using the direct collection method". The house's revenue
is its fees (the `fees` app): no fill or credit slip and no house tray count (opener, closer) at
its tables. The player dealer/banker's chips are not the house's, and the house seats no dealer
(2). The other slip rules are not stated by this text: cited "House control" (`packs.base.Rule`)."""

from .tables import cite

CITATIONS: dict[str, str] = {
    "floor.fees_only": cite(1),
    # (2): "The game is played with ... a player who is ... both the dealer ... and banker
    # (dealer/banker)"; the amendment strikes "either a house dealer and a player/banker or".
    "floor.player_dealer": cite(2),
}
