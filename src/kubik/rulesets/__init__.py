"""The rulesets kubik ships (one package each), and what every ruleset shares: which
rulesets exist (:mod:`.registry`, the ``kubik.rulesets`` entry points) and their
rulebook numbers (:mod:`.data`). Importing this package imports nothing."""
