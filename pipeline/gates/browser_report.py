"""The browser gate's figures and reports: reports/browser.json and a human browser.html."""
from __future__ import annotations

import html
import json
from pathlib import Path

from .browser_check import citation_key

SCHEMA = "trigsight.browser-report/1"


def summarise(plans, result, failed_passages: set[str]) -> dict:
    """Counts for the manifest, and how far the source predictor and Chromium agree."""
    checks = [(p, c, o) for p in plans for c, o in zip(p.job.checks, _ordered(p, result))]
    passages = [(p, c, o) for p, c, o in checks if not c.fresh]
    citations = [(p, c, o) for p, c, o in checks if c.fresh]
    predicted_unique = [(p, c, o) for p, c, o in checks if p.predicted.get(c.key) == 1]
    both = [o for p, c, o in predicted_unique if o.ok]
    disagreements = [{"page": p.job.path, "key": c.key, "predicted": p.predicted.get(c.key), "count": o.count,
                      "proven": o.ok} for p, c, o in checks if (p.predicted.get(c.key) == 1) != o.ok]
    stats = result.stats
    return {
        "chromium": result.chromium,
        "pages": len(plans), "pages_checked": len(plans) - len(result.cached), "pages_cached": len(result.cached),
        "directives": len(checks),
        "passages": {"checked": len(passages), "proven": sum(o.ok for _, _, o in passages),
                     "left_out": len(failed_passages)},
        "citations": {"checked": len(citations), "proven": sum(o.ok for _, _, o in citations),
                      "failed": sum(not o.ok for _, _, o in citations)},
        "fresh_navigations": stats.fresh if stats else 0,
        "agreement": {"predicted_unique": len(predicted_unique), "browser_proven": sum(o.ok for _, _, o in checks),
                      "both": len(both), "checks": len(checks),
                      "agree": len(checks) - len(disagreements),
                      "same_count": sum(p.predicted.get(c.key) == o.count for p, c, o in checks),
                      "disagreements": disagreements[:50]},
        "seconds": round(result.seconds, 3),
        "browser_seconds": round(stats.seconds, 3) if stats else 0.0,
    }


def _ordered(plan, result):
    by_key = {o.key: o for o in result.outcomes.get(plan.job.path, [])}
    return [by_key[c.key] for c in plan.job.checks]


def build(plans, result, summary: dict, build_) -> dict:
    texts = {p.id: p.text for p in build_.passages}

    citations = {citation_key(r): r for r in build_.gate.resolved}
    pages, failures = [], []
    for plan in plans:
        rows = []
        for check, outcome in zip(plan.job.checks, _ordered(plan, result)):
            cited = citations.get(check.key)
            row = {"key": check.key, "kind": "citation" if check.fresh else "passage",
                   "text": " ".join(cited.citation.text.split()) if cited else texts.get(check.key, ""),
                   "source": f"{cited.citation.source}:{cited.citation.line}" if cited else "",
                   "url": f"{plan.job.path}#:~:{check.directive}", "predicted": plan.predicted.get(check.key),
                   **outcome.to_json()}
            rows.append(row)
            if not outcome.ok:
                failures.append({"page": plan.job.path, **row})
        pages.append({"path": plan.job.path, "cached": plan.job.path in result.cached,
                      "html_sha256": plan.html_sha256, "checks": rows})
    return {"schema": SCHEMA, "summary": summary, "failures": failures, "pages": pages}


def write(report: dict, folder: Path, also: Path | None = None) -> Path:
    """Write browser.json + browser.html into `folder` (and a copy into `also`); return the HTML."""
    data, page = json.dumps(report, ensure_ascii=False, indent=1) + "\n", render_html(report)
    for target in [folder] + ([also] if also else []):
        target.mkdir(parents=True, exist_ok=True)
        (target / "browser.json").write_text(data, "utf-8")
        (target / "browser.html").write_text(page, "utf-8")
    return (also or folder) / "browser.html"


def failure_lines(report: dict) -> list[str]:
    return [f"browser gate: {'refused' if f['kind'] == 'citation' else 'left out'} {f['kind']} on {f['page']} "
            f"\"{_short(f['text'])}\": {f['reason']}" for f in report["failures"]]


def headline(summary: dict) -> str:
    a = summary["agreement"]
    rate = 100.0 * a["agree"] / a["checks"] if a["checks"] else 100.0
    return (f"browser gate: {summary['pages']} pages ({summary['pages_checked']} checked, "
            f"{summary['pages_cached']} cached), {summary['directives']} directives, "
            f"{summary['passages']['left_out']} passages left out, {summary['citations']['failed']} citations failed; "
            f"predictor/browser agreement {a['agree']}/{a['checks']} ({rate:.1f}%): "
            f"{a['predicted_unique']} predicted unique, {a['browser_proven']} proven; "
            f"{summary['chromium']}; {summary['seconds']:.2f}s")


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def render_html(report: dict) -> str:
    s, e = report["summary"], html.escape
    rows = "".join(
        f"<tr><td>{e(f['page'])}</td><td>{e(f['kind'])}{'<br>' + e(f['source']) if f['source'] else ''}</td>"
        f"<td><a href=\"{e(f['url'])}\">{e(_short(f['text'], 160))}</a></td><td>{f['count']}</td>"
        f"<td>{e(f['reason'])}</td></tr>" for f in report["failures"])
    pages = "".join(
        f"<tr><td><a href=\"{e(p['path'])}\">{e(p['path'])}</a></td><td>{len(p['checks'])}</td>"
        f"<td>{sum(c['ok'] for c in p['checks'])}</td><td>{'cached' if p['cached'] else 'checked'}</td></tr>"
        for p in report["pages"])
    failures = (f"<table><tr><th>page</th><th>kind</th><th>passage</th><th>matches</th><th>reason</th></tr>{rows}</table>"
                if rows else "<p>No failures: every directive was proven in Chromium.</p>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Browser gate report · trigsight</title>
<style>body{{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}}
table{{border-collapse:collapse;width:100%;margin:1rem 0}}th,td{{border:1px solid #ccc;padding:.3rem .5rem;
text-align:left;vertical-align:top}}th{{background:#f3efe4}}</style></head>
<body><h1>Browser gate report</h1>
<p>{e(headline(s))}</p>
<h2>Failures ({len(report['failures'])})</h2>{failures}
<h2>Pages</h2><table><tr><th>page</th><th>directives</th><th>proven</th><th>this run</th></tr>{pages}</table>
</body></html>
"""
