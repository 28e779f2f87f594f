#!/usr/bin/env python3
"""Column-by-column summary statistics for a CSV/TSV file or inline CSV text.

INPUT_JSON (a JSON object):
    {
      "path": "data/sales.csv",       # or
      "csv": "a,b\n1,2\n",            # inline text; or only "task" containing a CSV block or a path
      "delimiter": ",",               # optional; sniffed when absent
      "columns": ["price", "qty"],    # optional subset
      "top": 5,                       # most frequent values shown for text columns
      "max_rows": 200000,
      "format": "markdown"            # or "json"
    }

Standard library only. Exit codes: 0 ok, 1 bad input, 2 unreadable or empty data.
"""

import csv
import io
import json
import math
import os
import re
import statistics
import sys
from collections import Counter

MISSING = {"", "na", "n/a", "nan", "null", "none", "-", "--", "?"}
NUMBER_RE = re.compile(r"^[+-]?[$€£¥]?\s?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?%?$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
BOOL_VALUES = {"true", "false", "yes", "no", "y", "n", "t", "f"}
MAX_INLINE = 5_000_000


def fail(message, code=1):
    sys.stderr.write(f"csv-summary: {message}\n")
    sys.exit(code)


def locate(path):
    """A path as the user meant it: ~ expanded, and a relative one found in the run's folder
    or else in the user's project folder (SkillDeck's WORKSPACE), where "data.csv" lives."""
    path = os.path.expanduser(path.strip())
    if os.path.isabs(path) or os.path.exists(path):
        return path
    workspace = os.environ.get("WORKSPACE")
    if workspace and os.path.exists(os.path.join(workspace, path)):
        return os.path.join(workspace, path)
    return path


def read_input():
    raw = os.environ.get("INPUT_JSON", "").strip()
    if not raw:
        fail('INPUT_JSON is empty. Pass {"path": "file.csv"} or {"csv": "a,b\\n1,2"}.')
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        fail(f"INPUT_JSON is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno}).")
    if not isinstance(data, dict):
        fail('INPUT_JSON must be a JSON object such as {"path": "file.csv"}.')
    return data


def source_text(data):
    """Return (label, text) from path, csv or task."""
    if data.get("path") is not None:
        path = data["path"]
        if not isinstance(path, str) or not path.strip():
            fail('"path" must be a non-empty string.')
        path = locate(path)
        if not os.path.isfile(path):
            fail(f"file not found: {path}")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_INLINE * 20 + 1)
        return path, decode(raw)
    if data.get("csv") is not None:
        if not isinstance(data["csv"], str) or not data["csv"].strip():
            fail('"csv" must be non-empty CSV text.')
        if len(data["csv"]) > MAX_INLINE:
            fail("inline CSV is larger than 5 MB; save it to a file and pass its path.")
        return "inline CSV", data["csv"]
    task = data.get("task")
    if isinstance(task, str) and task.strip():
        fence = re.search(r"```(?:csv|tsv|text)?\s*\n(.*?)```", task, re.S)
        if fence:
            return "CSV from the message", fence.group(1)
        for token in re.findall(r"[\w~./\\-]+\.(?:csv|tsv|txt)\b", task):
            candidate = locate(token)
            if os.path.isfile(candidate):
                with open(candidate, "rb") as fh:
                    return candidate, decode(fh.read())
        lines = [ln for ln in task.splitlines() if ln.strip()]
        if len(lines) >= 2 and all(("," in ln or "\t" in ln) for ln in lines[-2:]):
            start = next(i for i, ln in enumerate(lines) if "," in ln or "\t" in ln)
            return "CSV from the message", "\n".join(lines[start:])
    fail('no CSV given. Pass "path" (a .csv file) or "csv" (inline text), or paste the CSV in the task.')


def decode(raw):
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            text = raw.decode(encoding)
            if "\x00" not in text:
                return text
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def sniff_delimiter(text, given):
    if given:
        if given in ("\\t", "tab"):
            return "\t"
        if len(given) != 1:
            fail('"delimiter" must be one character (or "tab").')
        return given
    sample = "\n".join(text.splitlines()[:50])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def to_number(value):
    v = value.strip()
    if not NUMBER_RE.match(v) or not re.search(r"\d", v):
        try:
            f = float(v)  # inf, 1e5 and other forms float() accepts
            return None if math.isnan(f) or math.isinf(f) else f
        except ValueError:
            return None
    pct = v.endswith("%")
    v = re.sub(r"[$€£¥,%\s]", "", v)
    try:
        f = float(v)
    except ValueError:
        return None
    return f / 100 if pct else f


def fmt(x):
    if x is None:
        return ""
    if isinstance(x, float):
        if x.is_integer() and abs(x) < 1e15:
            return f"{int(x):,}"
        return f"{x:,.4g}" if abs(x) >= 1e6 or abs(x) < 1e-3 else f"{x:,.2f}".rstrip("0").rstrip(".")
    return str(x)


def summarize_column(name, values, top):
    present = [v.strip() for v in values if v.strip().lower() not in MISSING]
    info = {"column": name, "count": len(values), "missing": len(values) - len(present), "unique": len(set(present))}
    if not present:
        info["type"] = "empty"
        return info
    numbers = [n for n in (to_number(v) for v in present) if n is not None]
    lowered = {v.lower() for v in present}
    if len(numbers) == len(present):
        info["type"] = "integer" if all(float(n).is_integer() for n in numbers) else "number"
    elif len(numbers) >= 0.9 * len(present):
        info["type"] = "mostly numeric"
        info["non_numeric"] = len(present) - len(numbers)
    elif all(DATE_RE.match(v) for v in present):
        info["type"] = "date"
        info["min"], info["max"] = min(present), max(present)
        return info
    elif lowered <= BOOL_VALUES:
        info["type"] = "boolean"
    else:
        info["type"] = "text"
    if info["type"] in ("integer", "number", "mostly numeric"):
        info["min"] = min(numbers)
        info["max"] = max(numbers)
        info["mean"] = statistics.fmean(numbers)
        info["median"] = statistics.median(numbers)
        info["stdev"] = statistics.stdev(numbers) if len(numbers) > 1 else 0.0
        info["sum"] = math.fsum(numbers)
    else:
        counts = Counter(present).most_common(top)
        info["top"] = [[value, count] for value, count in counts]
        lengths = [len(v) for v in present]
        info["min_length"], info["max_length"] = min(lengths), max(lengths)
    return info


def main():
    data = read_input()
    top = data.get("top", 5)
    max_rows = data.get("max_rows", 200_000)
    out_format = data.get("format", "markdown")
    if not isinstance(top, int) or not 1 <= top <= 50:
        fail('"top" must be an integer from 1 to 50.')
    if not isinstance(max_rows, int) or max_rows < 1:
        fail('"max_rows" must be a positive integer.')
    if out_format not in ("markdown", "json"):
        fail('"format" must be "markdown" or "json".')

    label, text = source_text(data)
    if not text.strip():
        fail(f"{label} is empty.", code=2)
    delimiter = sniff_delimiter(text, data.get("delimiter"))
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        fail(f"{label} has no header row.", code=2)
    header = [h.strip() or f"column_{i + 1}" for i, h in enumerate(header)]
    if len(set(header)) != len(header):
        seen = Counter()
        for i, h in enumerate(header):
            seen[h] += 1
            if seen[h] > 1:
                header[i] = f"{h}_{seen[h]}"

    rows, ragged, truncated = [], 0, False
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(rows) >= max_rows:
                truncated = True
                break
            if len(row) != len(header):
                ragged += 1
                row = (row + [""] * len(header))[: len(header)]
            rows.append(row)
    except csv.Error as err:
        fail(f"could not parse {label} at line {reader.line_num}: {err}", code=2)

    wanted = data.get("columns")
    indexes = list(range(len(header)))
    if wanted is not None:
        if not isinstance(wanted, list) or not all(isinstance(c, str) for c in wanted):
            fail('"columns" must be an array of column names.')
        missing = [c for c in wanted if c not in header]
        if missing:
            fail(f"unknown column(s) {missing}; the columns are {header}.")
        indexes = [header.index(c) for c in wanted]

    summaries = [summarize_column(header[i], [r[i] for r in rows], top) for i in indexes]
    duplicates = len(rows) - len({tuple(r) for r in rows})
    result = {
        "source": label,
        "delimiter": "tab" if delimiter == "\t" else delimiter,
        "rows": len(rows),
        "columns": len(header),
        "duplicate_rows": duplicates,
        "ragged_rows": ragged,
        "truncated_at": max_rows if truncated else None,
        "summary": summaries,
    }
    if out_format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return

    print(f"## CSV summary: {label}\n")
    print(f"**{len(rows):,} rows × {len(header)} columns** (delimiter `{result['delimiter']}`)")
    notes = []
    if duplicates:
        notes.append(f"{duplicates} duplicate row(s)")
    if ragged:
        notes.append(f"{ragged} row(s) with a different number of fields (padded or cut)")
    if truncated:
        notes.append(f"only the first {max_rows:,} rows were read")
    if notes:
        print("\n> " + "; ".join(notes))

    numeric = [s for s in summaries if s["type"] in ("integer", "number", "mostly numeric")]
    other = [s for s in summaries if s not in numeric]
    if numeric:
        print("\n### Numeric columns\n")
        print("| column | type | missing | min | max | mean | median | std dev | sum |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for s in numeric:
            kind = s["type"] + (f" ({s['non_numeric']} non-numeric)" if s.get("non_numeric") else "")
            cells = [s["column"], kind, s["missing"], s["min"], s["max"], s["mean"], s["median"], s["stdev"], s["sum"]]
            print("| " + " | ".join(fmt(c).replace("|", "\\|") for c in cells) + " |")
    if other:
        print("\n### Other columns\n")
        print("| column | type | missing | unique | most frequent |")
        print("| --- | --- | ---: | ---: | --- |")
        for s in other:
            if s["type"] == "date":
                detail = f"{s['min']} … {s['max']}"
            elif s.get("top"):
                detail = ", ".join(f"{v[:30]} ({c})" for v, c in s["top"])
            else:
                detail = ""
            cells = [s["column"], s["type"], fmt(s["missing"]), fmt(s["unique"]), detail]
            print("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")


if __name__ == "__main__":
    main()
