"""Where each segment of ``bottleimp._encoding.observation``'s layout starts, for the batch
engine: the kernel (``kernel.observe_row``) writes every observation at these offsets."""

from __future__ import annotations

from .._config import Config
from .._encoding import observation_layout


class Observer:
    """The offsets of ``config``'s observation layout (``at``), its width (``size``) and the
    deck's coins (``coins``, the unit of the scores and totals in an observation)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        layout = observation_layout(config)
        self.at = {segment.name: segment.offset for segment in layout}
        self.size = layout[-1].offset + layout[-1].size
        self.coins = float(sum(card.coins for card in config.cards))
