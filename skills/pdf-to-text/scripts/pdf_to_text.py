#!/usr/bin/env python3
"""Extract the text of a PDF with poppler's `pdftotext`.

INPUT_JSON (a JSON object):
    {
      "path": "docs/report.pdf",   # required (or a *.pdf path inside "task")
      "first_page": 1,             # optional
      "last_page": 3,              # optional
      "layout": false,             # keep the physical layout (columns, tables)
      "max_chars": 20000,          # printed text is cut after this many characters
      "save": false                # also write out/<name>.txt
    }

Exit codes: 0 ok, 1 bad input, 2 pdftotext failed, 127 pdftotext is not installed.
"""

import json
import os
import re
import shutil
import subprocess
import sys

INSTALL_HINT = (
    "pdftotext not found on PATH. Install poppler-utils: "
    "Debian/Ubuntu `sudo apt-get install poppler-utils`, Fedora `sudo dnf install poppler-utils`, "
    "macOS `brew install poppler`, Windows `choco install poppler`."
)


def fail(message, code=1):
    sys.stderr.write(f"pdf-to-text: {message}\n")
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
        fail('INPUT_JSON is empty. Pass e.g. {"path": "report.pdf"}.')
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        fail(f"INPUT_JSON is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno}).")
    if not isinstance(data, dict):
        fail('INPUT_JSON must be a JSON object such as {"path": "report.pdf"}.')
    return data


def pdf_path(data):
    path = data.get("path")
    if path is None and isinstance(data.get("task"), str):
        match = re.search(r"""["'`]?([^\s"'`]+\.pdf)\b""", data["task"], re.I)
        path = match.group(1) if match else None
    if path is None:
        fail('no PDF given. Pass "path" with the location of a .pdf file.')
    if not isinstance(path, str) or not path.strip():
        fail('"path" must be a non-empty string.')
    return locate(path)


def page_number(data, key):
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        fail(f'"{key}" must be a page number of 1 or more.')
    return value


def main():
    data = read_input()
    path = pdf_path(data)
    first, last = page_number(data, "first_page"), page_number(data, "last_page")
    if first and last and last < first:
        fail('"last_page" is before "first_page".')
    max_chars = data.get("max_chars", 20000)
    if not isinstance(max_chars, int) or max_chars < 100:
        fail('"max_chars" must be an integer of at least 100.')

    # A missing binary is a missing prerequisite (fatal, not repairable): say how to install it.
    binary = shutil.which("pdftotext")
    if not binary:
        fail(INSTALL_HINT, code=127)

    if not os.path.isfile(path):
        fail(f"file not found: {path}")
    with open(path, "rb") as fh:
        if fh.read(5) != b"%PDF-":
            fail(f"{path} is not a PDF (it does not start with %PDF-).")

    cmd = [binary, "-enc", "UTF-8"]
    if data.get("layout"):
        cmd.append("-layout")
    if first:
        cmd += ["-f", str(first)]
    if last:
        cmd += ["-l", str(last)]
    cmd += [path, "-"]
    timeout = float(os.environ.get("TIMEOUT") or 120)
    try:
        result = subprocess.run(cmd, capture_output=True, timeout=max(1.0, timeout - 2))
    except subprocess.TimeoutExpired:
        fail(f"pdftotext did not finish within {timeout:.0f} s; try a page range.", code=2)
    stderr = result.stderr.decode("utf-8", "replace").strip()
    if result.returncode != 0:
        reason = {1: "cannot open the PDF", 3: "the PDF is encrypted or copying is not permitted"}.get(
            result.returncode, "error"
        )
        fail(f"pdftotext failed ({reason}): {stderr or 'no details'}", code=2)

    text = result.stdout.decode("utf-8", "replace")
    pages = text.count("\f") + (0 if text.endswith("\f") else 1) if text else 0
    clean = re.sub(r"\n{3,}", "\n\n", text.replace("\f", "\n\n")).strip()
    name = os.path.basename(path)
    span = f"pages {first or 1}-{last or 'end'}" if first or last else f"{pages} page(s)"

    if not clean:
        print(f"No text found in {name} ({span}). It is probably a scanned document: run OCR "
              f"(e.g. `tesseract page.png out`) or `ocrmypdf` first.")
        return

    saved = ""
    if data.get("save"):
        os.makedirs("out", exist_ok=True)
        target = os.path.join("out", os.path.splitext(name)[0] + ".txt")
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(clean + "\n")
        saved = f" Full text saved to `{target}`."

    words = len(clean.split())
    print(f"## {name} ({span}, {words:,} words, {len(clean):,} characters)\n")
    if len(clean) > max_chars:
        print(clean[:max_chars].rstrip())
        print(f"\n[… cut at {max_chars:,} of {len(clean):,} characters; ask for a page range or use \"save\".]")
    else:
        print(clean)
    if saved:
        print("\n" + saved.strip())
    if stderr:
        print(f"\n> pdftotext warnings: {stderr[:300]}")


if __name__ == "__main__":
    main()
