"""Adapters to game and learning frameworks, each an optional extra.

- ``bottleimp.adapters.openspiel`` (extra ``openspiel``): the game ``python_bottle_imp`` for
  OpenSpiel.
- ``bottleimp.adapters.pettingzoo`` (extra ``pettingzoo``): an AEC environment for PettingZoo,
  with Gymnasium spaces.
- ``bottleimp.adapters.single_agent`` (extra ``pettingzoo``): one seat as a Gymnasium
  environment, the others played by bots, with action masks for ``sb3_contrib.MaskablePPO``;
  ``win_rate`` of a policy against bots.

They are built on ``bottleimp._encoding`` (action numbers, masks, observations) and import their
framework when imported, so importing ``bottleimp`` alone never needs them.
"""
