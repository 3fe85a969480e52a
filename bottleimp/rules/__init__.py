"""The rules, one module per phase of the catalogue (``spec/rules.toml``): ``deal``, ``setup``,
``play``, ``scoring`` and ``game``; ``_registry`` ties each function to its rule ID.

Every function is pure and tagged with the stable rule ID that the catalogue lists with its
sources; the engine, the validator and the conformance tools only compose them. The rules of the
configuration and the cards are defined beside the types they check (``_cards``, ``_editions``,
``_config``) and named by ``config``; the view's rule is ``bottleimp.view``.
"""
