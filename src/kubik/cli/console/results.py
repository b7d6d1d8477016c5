"""What ``kubik procedures / resolve / odds`` print for people (``--json`` prints the contract).

Every printer writes to a Rich console that wraps at the terminal's width at word
boundaries; odds are said in sentences (:mod:`kubik.api.odds_words`) above the table
of outcomes with their exact probabilities.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from kubik.api.odds_words import field_label, field_sentences, fields_of, outcome_words
from kubik.api.words import policy_label, say, value_text
from kubik.cli.console.wrap import print_wrapped
from kubik.core import limits

if TYPE_CHECKING:  # (the simulator loads only for an estimate; Rich's tables for a table)
    from rich.table import Table

    from kubik.engine.simulate import Estimate


def console_for_people(stderr: bool = False) -> Console:
    """A console that wraps long lines at word boundaries (never mid-word)."""
    return Console(highlight=False, soft_wrap=False, stderr=stderr)


# -- procedures -----------------------------------------------------------------


def print_procedures(console: Console, specs: Sequence[Mapping[str, Any]], lang: str) -> None:
    """Every procedure: name, rule ids and summary (``kubik procedures NAME`` for fields)."""
    from rich.table import Table

    table = Table(title=say("cli.procedures.title", lang), show_lines=False)
    table.add_column(say("cli.procedures.name", lang), style="bold", no_wrap=True)
    table.add_column(say("cli.procedures.summary", lang), ratio=1)
    for spec in specs:
        cell = Text(spec["summary"])
        cell.append("\n" + " ".join(spec["rules"]), style="dim")
        table.add_row(spec["name"], cell)
    console.print(table)
    console.print(say("cli.procedures.more", lang), style="dim")


def _resolve(schema: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        resolved = schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
        return {**resolved, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def allowed_text(schema: Mapping[str, Any], node: Mapping[str, Any], lang: str) -> str:
    """What a field of a JSON schema takes, for people: ``whole number 1–3``, ``d4, d6``."""
    node = _resolve(schema, node)
    options = node.get("anyOf")
    if isinstance(options, list):
        kinds = [allowed_text(schema, o, lang) for o in options if o.get("type") != "null"]
        text = " | ".join(kinds)
        if any(o.get("type") == "null" for o in options):
            text += say("cli.schema.or_null", lang)
        return text
    if "enum" in node:
        return ", ".join(str(v) for v in node["enum"])
    kind = node.get("type")
    if kind in {"integer", "number"}:
        low, high = node.get("minimum"), node.get("maximum")
        word = say("cli.schema.whole" if kind == "integer" else "cli.schema.number", lang)
        if low is not None and high is not None:
            return f"{word} {_number(low)}–{_number(high)}"
        if low is not None:
            return f"{word} ≥ {_number(low)}"
        if high is not None:
            return f"{word} ≤ {_number(high)}"
        return word
    if kind == "boolean":
        return "true, false"
    if kind == "string":
        return say("cli.schema.text", lang)
    if kind == "array":
        items = _resolve(schema, node.get("items", {}))
        if items.get("type") == "object":
            inner = "{" + ", ".join(items.get("properties", {})) + "}"
        else:
            inner = allowed_text(schema, items, lang)
        low, high = node.get("minItems"), node.get("maxItems")
        size = ""
        if low is not None and high is not None:
            size = f" ({low}–{high})"
        elif low is not None:
            size = f" (≥ {low})"
        elif high is not None:
            size = f" (≤ {high})"
        return say("cli.schema.list", lang, items=inner) + size
    if kind == "object":
        return "{" + ", ".join(node.get("properties", {})) + "}"
    return say("cli.schema.any", lang)


def _default_text(node: Mapping[str, Any], required: bool, lang: str) -> str:
    if required:
        return say("cli.schema.required", lang)
    if "default" not in node:
        return ""
    return json.dumps(node["default"], ensure_ascii=False)


def _fields_table(
    schema: Mapping[str, Any], node: Mapping[str, Any], lang: str, title: str
) -> Table:
    from rich.table import Table

    node = _resolve(schema, node)
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column(say("cli.schema.field", lang), style="bold", no_wrap=True)
    table.add_column(say("cli.schema.allowed", lang), ratio=2)
    table.add_column(say("cli.schema.default", lang))
    table.add_column(say("cli.schema.meaning", lang), ratio=3)
    required = set(node.get("required", ()))
    for name, field in node.get("properties", {}).items():
        table.add_row(
            name,
            allowed_text(schema, field, lang),
            _default_text(field, name in required, lang),
            str(field.get("description", "")),
        )
    return table


def _nested_objects(schema: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The objects fields are lists of (``weapons`` → ``WeaponEntry``), each once."""
    found: list[tuple[str, Mapping[str, Any]]] = []
    seen: set[str] = set()
    for name, field in schema.get("properties", {}).items():
        node = _resolve(schema, field)
        inner = _resolve(schema, node.get("items", {})) if node.get("type") == "array" else node
        title = str(inner.get("title", name))
        if inner.get("type") == "object" and title not in seen:
            seen.add(title)
            found.append((name, inner))
    return found


def print_procedure(console: Console, spec: Mapping[str, Any], lang: str) -> None:
    """One procedure: summary, rule ids, a table of its fields (ranges, defaults), examples."""
    console.print(Text(spec["name"], style="bold"), Text(f"— {spec['summary']}"))
    console.print(say("cli.procedure.rules", lang, rules=", ".join(spec["rules"])))
    schema = spec["input_schema"]
    console.print(_fields_table(schema, schema, lang, say("cli.procedure.input", lang)))
    for name, node in _nested_objects(schema):
        title = say("cli.procedure.items", lang, field=name)
        console.print(_fields_table(schema, node, lang, title))
    # the one range no field shows: the work an exact answer may take
    console.print(say("cli.procedure.work", lang, steps=limits.ODDS_STEPS))
    for example in spec.get("examples", [])[:2]:
        text = json.dumps(example, ensure_ascii=False)
        console.print(say("cli.procedure.example", lang), style="dim")
        print_wrapped(console, f"kubik odds {spec['name']} --input '{text}'", 2, 4)


# -- one resolution -------------------------------------------------------------


_FROM_JSON: Any = object()


def print_resolution(
    console: Console, result: Mapping[str, Any], lang: str, outcome: Any = _FROM_JSON
) -> None:
    """A narrated resolution (``kubik resolve``): each roll and step, then the outcome
    (``outcome``: the procedure's own, whose named values say themselves in ``lang``;
    by default the JSON's)."""
    for entry in result["log"]:
        depth = entry["depth"] + 1
        if entry["type"] == "roll":
            values = ", ".join(str(v) for v in entry["values"])
            dice = ", ".join(entry["dice"])
            if lang == "ru":
                dice = dice.replace("d", "к")
            mark = "✍" if entry["origin"] == "typed" else "🎲"
            line = Text(f"{mark} {dice} → ")
            line.append(values, style="bold")
            line.append(f"  ({entry['reason']})")
        elif entry["type"] == "choice":
            line = Text(f"? {entry['side']}: {entry['answer']}  ({entry['reason']})")
        else:
            line = Text(str(entry["text"]))
        print_wrapped(console, line, 2 * depth, 2)
    words = Text(f"{say('kubik.outcome', lang)}: ", style="bold")
    words.append(outcome_words(result["outcome"] if outcome is _FROM_JSON else outcome, lang))
    console.print(words)
    if "seed" in result:
        console.print(say("cli.resolve.seed", lang, seed=result["seed"]), style="dim")


# -- odds -----------------------------------------------------------------------


def _sentences(console: Console, rows: Sequence[tuple[Any, float]], lang: str) -> None:
    for line in field_sentences(rows, lang):
        print_wrapped(console, line, 2, 2)


def print_exact_odds(
    console: Console,
    name: str,
    distribution: Mapping[Any, Fraction],
    order: Sequence[Any],
    lang: str,
    full: bool = True,
) -> None:
    """Exact odds: each field in a sentence (its headline), then, when ``full``, every
    outcome with its exact probability (otherwise a line saying how to see them)."""
    console.print(Text(f"{name} — {say('cli.odds.exact_title', lang)}", style="bold"))
    rows = [(outcome, float(distribution[outcome])) for outcome in order]
    _sentences(console, rows, lang)
    if not full:
        if len(order) > 1:
            console.print(Text(say("cli.odds.full_hint", lang, n=len(order)), style="dim"))
        return
    console.print(outcomes_table(distribution, order, lang))


def outcomes_table(distribution: Mapping[Any, Fraction], order: Sequence[Any], lang: str) -> Table:
    """Every outcome, one column per field: a value the row above shows already is left
    blank (``effect`` is said once for its whole run of outcomes, not in every row)."""
    from rich.table import Table

    named = [fields_of(outcome) for outcome in order]
    columns = [field for field, _ in named[0]] if named else []
    by_fields = all([f for f, _ in fields] == columns for fields in named) and columns != [""]
    table = Table(show_edge=True)
    if by_fields:
        for field in columns:
            table.add_column(field_label(field, lang), no_wrap=False)
    else:
        table.add_column(say("kubik.outcome", lang), ratio=1)
    table.add_column(say("kubik.probability", lang), justify="right", no_wrap=True)
    table.add_column("%", justify="right", no_wrap=True)
    above: list[str] = []
    for outcome, fields in zip(order, named, strict=True):
        p = distribution[outcome]
        if by_fields:
            texts = [value_text(value, lang) for _, value in fields]
            cells = []
            same = True
            for index, text in enumerate(texts):
                same = same and index < len(above) and above[index] == text
                cells.append("" if same else text)
            above = texts
        else:
            cells = [outcome_words(outcome, lang)]
        table.add_row(*cells, str(p), f"{float(p):.2%}")
    return table


def print_estimates(
    console: Console, name: str, estimates: Sequence[Estimate], runs: int, lang: str
) -> None:
    """A Monte Carlo estimate: sentences from the frequencies, then counts with intervals."""
    from rich.table import Table

    title = say("cli.odds.simulated_title", lang, runs=runs)
    console.print(Text(f"{name} — {title}", style="bold"))
    _sentences(console, [(e.outcome, e.p) for e in estimates], lang)
    table = Table()
    table.add_column(say("kubik.outcome", lang), ratio=1)
    table.add_column(say("cli.odds.count", lang), justify="right", no_wrap=True)
    table.add_column(say("cli.odds.interval", lang), justify="right", no_wrap=True)
    for estimate in estimates:
        low, high = estimate.interval
        table.add_row(
            outcome_words(estimate.outcome, lang),
            str(estimate.count),
            f"{estimate.p:.2%} [{low:.2%}, {high:.2%}]",
        )
    console.print(table)


def print_comparison(
    console: Console,
    name: str,
    by_policy: Mapping[str, Mapping[Any, Fraction]],
    order: Sequence[Any],
    lang: str,
) -> None:
    """Exact odds under each policy: sentences per policy, then outcomes side by side."""
    from rich.table import Table

    console.print(Text(f"{name} — {say('cli.odds.exact_title', lang)}", style="bold"))
    for policy, distribution in by_policy.items():
        console.print(
            Text(say("kubik.policy", lang, name=policy_label(policy, lang)), style="bold")
        )
        _sentences(console, [(o, float(distribution.get(o, 0))) for o in order], lang)
    table = Table()
    table.add_column(say("kubik.outcome", lang), ratio=1)
    for policy in by_policy:
        table.add_column(
            say("kubik.policy", lang, name=policy_label(policy, lang)), justify="right"
        )
    for outcome in order:
        cells = []
        for distribution in by_policy.values():
            p = distribution.get(outcome, Fraction(0))
            cells.append(f"{p} ({float(p):.2%})")
        table.add_row(outcome_words(outcome, lang), *cells)
    console.print(table)


__all__ = [
    "allowed_text",
    "console_for_people",
    "print_comparison",
    "print_estimates",
    "print_exact_odds",
    "print_procedure",
    "print_procedures",
    "print_resolution",
]
