"""The rules, one module per phase of the catalogue (``spec/rules.toml``): ``deal``, ``setup``,
``play``, ``scoring`` and ``game``; ``registry`` ties each function to its rule ID.

Every function is pure and tagged with the stable rule ID that the catalogue lists with its
sources; the engine, the validator and the conformance tools only compose them. (The
configuration and view rules live in the core modules ``cards``, ``editions``, ``config`` and
``view``.)
"""
