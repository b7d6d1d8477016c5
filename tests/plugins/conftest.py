"""The ruleset of the plugin test is a package of its own, installed into a child
process's path by the test: it is never imported here."""

collect_ignore = ["brawl"]
