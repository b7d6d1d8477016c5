"""Write the rulesets' glossaries (Russian term ↔ English id) as Markdown for the docs.

``python -m kubik.text.glossary > docs/glossary.md``; a test keeps the committed file
in step with the data.
"""

from __future__ import annotations

from itertools import groupby

from kubik.text.i18n import glossary

TITLES = {
    "steel_war": "Стальная война (Steel War)",
    "old_west": "Legends of the Old West",
    "apocalypse": "Дороги Апокалипсиса (Roads of the Apocalypse)",
    "fantasy": "Warhammer Fantasy",
}


def markdown() -> str:
    """The glossary of every ruleset, one table each."""
    lines = [
        "# Glossary — game terms in Russian and English",
        "",
        "Generated from `src/kubik/rulesets/*/glossary*` by `python -m kubik.text.glossary`.",
        "English text shows each term with its Russian name; `--lang ru` uses the Russian one.",
        "",
    ]
    for ruleset, terms in groupby(glossary(), key=lambda t: t.ruleset):
        lines += [
            f"## {TITLES.get(ruleset, ruleset)}",
            "",
            "| Русский | English | id |",
            "|---|---|---|",
        ]
        for term in sorted(terms, key=lambda t: t.ru.lower()):
            lines.append(f"| {term.ru} | {term.en} | `{term.id}` |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
