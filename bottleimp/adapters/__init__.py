"""Adapters to game and learning frameworks, each an optional extra.

- ``bottleimp.adapters.openspiel`` (extra ``openspiel``): the game ``python_bottle_imp`` for
  OpenSpiel.
- ``bottleimp.adapters.pettingzoo`` (extra ``pettingzoo``): an AEC environment for PettingZoo,
  with Gymnasium spaces.

They are built on ``bottleimp.encoding`` (action numbers, masks, observations) and import their
framework when imported, so importing ``bottleimp`` alone never needs them.
"""
