"""The rules, one module per phase: ``setup``, ``play`` and ``scoring``. Every function is pure
and tagged with the stable rule ID that ``spec/rules.toml`` lists with its sources."""
