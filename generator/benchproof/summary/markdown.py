"""One report as Markdown to paste into a decision document (like hyperfine's
``--export-markdown``, with the caveats kept): the decision and its claims, each section's
figures with their ratio to the baseline and their state (better, worse, within-noise,
too-few: separated from the baseline as the audit defines it), the audit's markers on them,
the findings, and a link to the receipts."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.compare.markdown import escape, table
from benchproof.compute.relative import mark
from benchproof.compute.separation import SAME, SEPARATED, TOO_FEW
from benchproof.model.terms import way

CAVEATS = (
    "Figures are medians of the successful repetitions, with their min–max; n is shown below three "
    "repetitions; `--` means not measured, never zero; failed and unsupported arms stay listed. "
    "vs baseline: better or worse only where the arm's and the baseline's repetitions are separated "
    "(ranges apart — beyond ten a side, interquartile ranges and a rank test — and medians more than "
    "the noise threshold apart); within-noise otherwise; too-few below three repetitions a side; same "
    "when every value of both is the same. "
    "The figures are descriptive: they say what was measured, not what will be."
)


@dataclass(frozen=True)
class Receipts:
    """Where the evidence is: the bundle's link and its SHA-256, or why there is none yet."""

    href: str | None
    name: str
    sha256: str | None
    note: str  # Markdown


def state(compared, better: str, is_baseline: bool, median) -> str:
    """The figure against its section's baseline (``compared``: the compute stage's comparison,
    benchproof.compute.comparisons.Comparison, or None), in words."""
    if is_baseline:
        return "baseline"
    if median is None:
        return fmt.MISSING
    if compared is None:
        return ""
    found = compared.separation
    if found.state == SEPARATED:
        return way(better, found.median_a, found.median_b)
    return {TOO_FEW: "too-few", SAME: "same"}.get(found.state, "within-noise")


def _decision(view) -> list[str]:
    if view is None:
        return []
    lines = [
        f"**Decision.** {escape(view.question)} — **{escape(view.verdict or view.status_text)}** "
        f"({escape(view.status_text)})",
        "",
    ]
    if view.summary:
        lines += [escape(view.summary), ""]
    for c in view.claims:
        figures = "; ".join(f"{escape(f.place)}: {escape(f.value)}" for f in c.figures)
        note = f" ({escape(c.note)})" if c.note else ""
        lines.append(
            f"- {c.symbol} **{escape(c.state_text)}**: {escape(c.text)} — expects {escape(c.expect)}; {figures}{note}"
        )
    if view.would_change:
        lines += ["", "What would change it: " + "; ".join(escape(w) for w in view.would_change) + "."]
    if view.bars:
        lines += ["", "The re-run bar (what a re-run must reach):", ""] + [
            f"- {escape(b.what)} of {escape(b.place)}: {escape(b.bar)}; now {escape(b.now.text)} (**{escape(b.inside)}**)"
            for b in view.bars
        ]
    return lines + [""]


def _flags(flags) -> str:
    return ", ".join(
        f"{'✓' if accepted else '⚠'} {escape(rule)}"
        for rule, accepted in dict.fromkeys((f.rule, f.accepted) for f in flags)
    )


def _headline(h) -> list[str]:
    """The section's main result in words (benchproof.pages.headlines.Headline), above its table."""
    if h is None:
        return []
    parts = "; ".join(f"**{escape(label)}** {escape(words)}" for label, words in h.parts)
    return [f"{escape(h.subject)}{': ' + parts if parts else ''}.", ""]


def _section(project, results, audit, comparisons, section, said=None) -> list[str]:
    labels = {a.id: a.label for a in project.arms.values()}
    dims = {d.id: d.label for d in project.report.dimensions}

    metrics = project.report.metrics
    many_dims = len(project.report.dimensions) > 0
    heading = f"### {escape(section.title)}"
    if section.baseline:
        heading += f" (baseline: {escape(labels[section.baseline])})"
    headers = (
        [project.report.arm_label]
        + (["Point"] if many_dims else [])
        + ["Metric", "Median (min–max)", "vs baseline", "State", "Audit"]
    )
    rows = []
    for row in results.section_rows(section.id):
        for metric in metrics:
            stat = row.stats[metric.id]
            if stat.median is None and stat.status == "n/a":
                continue
            words = fmt.beside(stat.ratio, metric.better, stat.is_baseline)
            ratio = (
                "" if stat.ratio is None or row.arm == section.baseline else f"{fmt.ratio(stat.ratio)} {words}".strip()
            )
            compared = comparisons.baseline(section.id, row.arm, row.point, metric.id)
            if compared is not None and compared.relative_only:  # made of records a relative guard caught
                ratio = (
                    f"{fmt.ratio(compared.ratio)} {fmt.beside(compared.ratio, metric.better)}, "
                    f"{mark(compared.relative_only)}"
                )
            figure = fmt.summary(stat, metric.decimals) if stat.median is not None else f"{fmt.MISSING} {stat.status}"
            small = fmt.small_n(stat)
            flags = (
                *audit.cells.get((section.id, row.arm, row.point, metric.id), ()),
                *audit.sections.get(section.id, ()),
            )
            rows.append(
                [escape(labels[row.arm])]
                + ([escape(fmt.point(row.point, dims))] if many_dims else [])
                + [
                    escape(f"{metric.label} ({metric.unit})" if metric.unit else metric.label),
                    escape(f"{figure} {small}".strip()),
                    escape(ratio),
                    escape(
                        state(
                            comparisons.baseline(section.id, row.arm, row.point, metric.id),
                            metric.better,
                            row.arm == section.baseline,
                            stat.median,
                        )
                    ),
                    _flags(flags),
                ]
            )
    return [heading, ""] + _headline(said) + table(headers, rows, {len(headers) - 4}) + [""]


def _findings(audit) -> list[str]:
    if not audit.notices:
        return ["**Before you quote these numbers:** the audit found nothing to flag.", ""]
    lines = [f"**Before you quote these numbers** ({len(audit.open)} open, {len(audit.accepted)} accepted):", ""]
    for n in audit.notices:
        accepted = f" — accepted: {escape(n.accepted)}" if n.accepted else ""
        lines.append(f"- `{escape(n.rule)}` {escape(n.subject)}: {escape(n.headline)} ({escape(n.count())}){accepted}")
    return lines + [""]


def render(
    project, results, audit, decision, comparisons, receipts: Receipts, generator: str, headlines: dict | None = None
) -> str:
    """``headlines``: section id → its main result in words (benchproof.pages.headlines)."""
    report = project.report
    noise = project.audit.noise_threshold
    lines = [f"## {escape(report.title)}", ""]
    if report.subtitle:
        lines += [escape(report.subtitle), ""]
    lines += _decision(decision)
    for section in report.sections:
        lines += _section(project, results, audit, comparisons, section, (headlines or {}).get(section.id))
    lines += _findings(audit)
    if receipts.href:
        lines.append(
            f"**Receipts:** [{escape(receipts.name)}]({receipts.href}) (SHA-256 `{receipts.sha256}`) — {receipts.note}"
        )
    else:
        lines.append(f"**Receipts:** {receipts.note}")
    lines += [
        "",
        f"_{CAVEATS} Noise threshold: {fmt.setting(noise * 100)}% (audit.noise_threshold). "
        f"Summarised by {escape(generator)}._",
        "",
    ]
    return "\n".join(lines)
