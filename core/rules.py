"""What a refusal cites when no law states the rule."""

# What a refusal cites when the regulation does not say who may act: the product's own control
# (shared/docs/domain.md), never a section that does not say it.
HOUSE_CONTROL = "House control"
