#!/usr/bin/env python3
"""Parse invoices and receipts (vendor, date, amount, tax, number) into ./out/invoices.csv.

Input comes from the INPUT_JSON environment variable (SkillDeck / apex-bridge convention):

    {
      "task": "free text from the user (used as invoice text when nothing else is given)",
      "text": "one invoice as plain text",
      "texts": ["several invoices", "..."],
      "path": "a file or a folder of .txt/.md/.eml/.pdf invoices",
      "recursive": true,
      "organize": false,          # also copy files into out/invoices/YYYY-MM/
      "out_dir": "out",           # must stay inside ./out
      "csv_name": "invoices.csv",
      "date_order": "auto"        # or "mdy" / "dmy" for dates like 03/04/2024
    }

Only the Python standard library is used. PDFs are read with `pdftotext` when it is on
PATH and skipped with a note otherwise. Exit codes: 0 ok, 1 bad input, 2 nothing found.
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import date

TEXT_EXTS = {".txt", ".md", ".eml", ".text", ".csv", ".html", ".htm"}
PDF_EXTS = {".pdf"}
IMAGE_EXTS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".heic", ".webp"}
MAX_FILES = 500
MAX_BYTES = 2_000_000

CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "￥": "CNY", "₹": "INR", "₩": "KRW"}
CURRENCY_CODES = ("USD", "EUR", "GBP", "CNY", "RMB", "JPY", "CAD", "AUD", "CHF", "HKD", "SGD", "INR", "KRW")

MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"), ("dec", "december"),
        ]
    )
    for m in names
}

# Labels ordered from most to least specific: the first label that yields a value wins.
TOTAL_LABELS = [
    r"价税合计[^\n]*?小写[)）]?", r"amount\s+due", r"balance\s+due", r"total\s+due", r"grand\s+total",
    r"total\s+amount", r"amount\s+paid", r"total\s*\(incl[^)]*\)", r"total", r"价税合计", r"合计金额",
    r"总计", r"合计", r"实付", r"金额",
]
TAX_LABELS = [r"vat", r"sales\s+tax", r"tax", r"gst", r"税额", r"税金"]
VENDOR_LABELS = [
    r"销售方\s*名称", r"销售方", r"收款方", r"商户名称", r"商户", r"vendor", r"seller", r"supplier",
    r"bill(?:ed)?\s+from", r"from", r"company", r"merchant", r"payee", r"sold\s+by",
]
NUMBER_LABELS = [r"发票号码", r"invoice\s*(?:no\.?|number|#)", r"receipt\s*(?:no\.?|number|#)", r"bill\s*(?:no\.?|#)"]
DATE_LABELS = [r"开票日期", r"日期", r"invoice\s+date", r"date\s+of\s+issue", r"issue\s+date", r"(?<!due )date"]
HEADER_WORDS = re.compile(
    r"^(tax\s+)?(invoice|receipt|bill|statement|quote|发票|增值税.*发票|电子发票.*|收据)\s*[#:：]?\s*$", re.I
)

AMOUNT_RE = re.compile(
    r"(?P<cur1>USD|EUR|GBP|CNY|RMB|JPY|CAD|AUD|CHF|HKD|SGD|INR|KRW|[$€£¥￥₹₩])?\s*"
    r"(?P<num>-?\d{1,3}(?:[,\s.]\d{3})+(?:[.,]\d{1,2})?|-?\d+(?:[.,]\d{1,2})?)"
    r"\s*(?P<cur2>USD|EUR|GBP|CNY|RMB|JPY|CAD|AUD|CHF|HKD|SGD|INR|KRW|元|€)?",
    re.I,
)


def fail(message, code=1):
    sys.stderr.write(f"invoice-organizer: {message}\n")
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
        fail('INPUT_JSON is empty. Pass e.g. {"text": "Invoice #12 ... Total $40.00"} or {"path": "./invoices"}.')
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        fail(f"INPUT_JSON is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno}).")
    if not isinstance(data, dict):
        fail("INPUT_JSON must be a JSON object, for example {\"path\": \"./invoices\"}.")
    return data


def parse_number(raw):
    s = raw.replace(" ", "")
    if re.fullmatch(r"-?\d{1,3}(\.\d{3})+(,\d{1,2})?", s):  # European 1.234,56
        s = s.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"-?\d+,\d{1,2}", s):  # European 12,50
        s = s.replace(",", ".")
    else:
        s = s.replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def find_amount(text, labels):
    """Return (amount, currency) for the first label followed by a money value on its line."""
    for label in labels:
        pattern = re.compile(rf"(?im)(?<![a-z])(?:{label})(?!\s*%)\s*(?:\([^)\n]*\))?\s*[:：]?\s*(?P<rest>[^\n]*)")
        for match in pattern.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            prefix = text[line_start:match.start()].lower()
            if label == r"total" and re.search(r"sub\s*-?$", prefix):
                continue  # "Subtotal" is not the total
            if "tax" in label and re.search(r"(before|excl\w*|pre)[\s-]*$", prefix):
                continue
            rest = match.group("rest")
            if re.match(r"(?i)(tax|vat|gst|id\b|no\.?\b|number|reg|rate|code|before|excl)", rest):
                continue  # "Total tax", "Tax ID", "VAT rate" are not the value we want
            for amount in AMOUNT_RE.finditer(rest):
                value = parse_number(amount.group("num"))
                if value is None or rest[amount.end():amount.end() + 1] == "%":
                    continue
                if re.fullmatch(r"(19|20)\d\d", amount.group("num")) and not amount.group("cur1"):
                    continue  # a year, not money
                cur = amount.group("cur1") or amount.group("cur2") or ""
                return value, normalize_currency(cur)
    return None, ""


def normalize_currency(cur):
    cur = cur.strip()
    if not cur:
        return ""
    if cur in CURRENCY_SYMBOLS:
        return CURRENCY_SYMBOLS[cur]
    if cur == "元" or cur.upper() == "RMB":
        return "CNY"
    return cur.upper()


def guess_currency(text):
    for code in CURRENCY_CODES:
        if re.search(rf"\b{code}\b", text):
            return "CNY" if code == "RMB" else code
    for symbol, code in CURRENCY_SYMBOLS.items():
        if symbol in text:
            return code
    if "元" in text or "人民币" in text:
        return "CNY"
    return ""


def parse_date(text, day_first):
    for label in DATE_LABELS:
        match = re.search(rf"(?im)(?:{label})\s*[:：]?\s*([^\n]{{4,40}})", text)
        if match:
            found = find_date(match.group(1), day_first)
            if found:
                return found
    return find_date(text, day_first)


def find_date(s, day_first=False):
    candidates = []
    for m in re.finditer(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?", s):
        candidates.append((m.start(), int(m.group(1)), int(m.group(2)), int(m.group(3))))
    for m in re.finditer(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b", s):
        a, b = int(m.group(1)), int(m.group(2))
        if a > 12 or (day_first and b <= 12):
            day, month = a, b
        else:
            day, month = b, a
        candidates.append((m.start(), int(m.group(3)), month, day))
    for m in re.finditer(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b", s):
        month = MONTHS.get(m.group(1).lower())
        if month:
            candidates.append((m.start(), int(m.group(3)), month, int(m.group(2))))
    for m in re.finditer(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b", s):
        month = MONTHS.get(m.group(2).lower())
        if month:
            candidates.append((m.start(), int(m.group(3)), month, int(m.group(1))))
    for _, y, mo, d in sorted(candidates):
        try:
            return date(y, mo, d).isoformat()
        except ValueError:
            continue
    return ""


def parse_vendor(text):
    for label in VENDOR_LABELS:
        match = re.search(rf"(?im)^\s*(?:{label})\s*[:：]\s*(.+)$", text)
        if match:
            value = match.group(1).strip()
            value = re.split(r"\s{2,}|\t|纳税人识别号|税号", value)[0].strip(" ,;")
            if value:
                return value[:80]
    for line in text.splitlines():
        line = line.strip().strip("*#=- ")
        if not line or HEADER_WORDS.match(line):
            continue
        line = re.sub(r"(?i)\s*\b(tax\s+)?(invoice|receipt|bill)\s*$", "", line)  # "Uber receipt" -> "Uber"
        if not line:
            continue
        if re.search(r"\d{3,}|[:：]|@|total|date|invoice|receipt", line, re.I):
            continue
        return line[:80]
    return ""


def parse_number_field(text):
    for label in NUMBER_LABELS:
        match = re.search(rf"(?im)(?:{label})\s*[:：#]?\s*([A-Za-z0-9][A-Za-z0-9\-/]{{1,39}})", text)
        if match:
            return match.group(1)
    return ""


DAY_FIRST_CURRENCIES = {"EUR", "GBP", "INR", "AUD", "CHF", "HKD", "SGD"}


def parse_invoice(text, date_order="auto"):
    amount, currency = find_amount(text, TOTAL_LABELS)
    tax, _ = find_amount(text, TAX_LABELS)
    if amount is None:
        amounts = [parse_number(m.group("num")) for m in AMOUNT_RE.finditer(text) if m.group("cur1") or m.group("cur2")]
        amounts = [a for a in amounts if a is not None]
        if amounts:
            amount = max(amounts)
    notes = []
    if amount is None:
        notes.append("no total found")
    currency = currency or guess_currency(text)
    # 03/04/2024 is ambiguous: day first for currencies of day-first countries, unless told otherwise.
    day_first = date_order == "dmy" or (date_order == "auto" and currency in DAY_FIRST_CURRENCIES)
    record = {
        "vendor": parse_vendor(text),
        "invoice_number": parse_number_field(text),
        "date": parse_date(text, day_first),
        "currency": currency,
        "amount": "" if amount is None else f"{amount:.2f}",
        "tax": "" if tax is None else f"{tax:.2f}",
    }
    if not record["date"]:
        notes.append("no date found")
    if not record["vendor"]:
        notes.append("no vendor found")
    record["notes"] = "; ".join(notes)
    return record


def pdf_text(path):
    binary = shutil.which("pdftotext")
    if not binary:
        return None, "skipped: PDF needs pdftotext (install poppler-utils)"
    timeout = float(os.environ.get("TIMEOUT", "60") or 60)
    try:
        result = subprocess.run(
            [binary, "-enc", "UTF-8", "-layout", path, "-"], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None, "skipped: pdftotext timed out"
    if result.returncode != 0:
        return None, f"skipped: pdftotext failed ({result.stderr.strip()[:120]})"
    return result.stdout, ""


def collect_files(path, recursive):
    if os.path.isfile(path):
        return [path]
    found = []
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        for name in sorted(files):
            if not name.startswith("."):
                found.append(os.path.join(root, name))
        if not recursive:
            break
    return found


def documents_from_input(data):
    """Yield (source name, text or None, note, original file path or None)."""
    docs = []
    if isinstance(data.get("text"), str) and data["text"].strip():
        docs.append(("text-1", data["text"], "", None))
    texts = data.get("texts")
    if texts is not None:
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            fail('"texts" must be an array of strings.')
        docs += [(f"text-{i + 1}", t, "", None) for i, t in enumerate(texts) if t.strip()]
    path = data.get("path")
    if path is not None:
        if not isinstance(path, str) or not path.strip():
            fail('"path" must be a non-empty string (a file or a folder).')
        path = locate(path)
        if not os.path.exists(path):
            fail(f"path not found: {path}")
        files = collect_files(path, data.get("recursive", True) is not False)
        if len(files) > MAX_FILES:
            fail(f"{len(files)} files under {path}; the limit is {MAX_FILES}. Point at a smaller folder.")
        for file in files:
            ext = os.path.splitext(file)[1].lower()
            name = os.path.relpath(file, path) if os.path.isdir(path) else os.path.basename(file)
            if ext in TEXT_EXTS:
                if os.path.getsize(file) > MAX_BYTES:
                    docs.append((name, None, "skipped: larger than 2 MB", file))
                    continue
                with open(file, encoding="utf-8", errors="replace") as fh:
                    docs.append((name, fh.read(), "", file))
            elif ext in PDF_EXTS:
                text, note = pdf_text(file)
                docs.append((name, text, note, file))
            elif ext in IMAGE_EXTS:
                docs.append((name, None, "skipped: image needs OCR (tesseract)", file))
    if not docs and isinstance(data.get("task"), str):
        task = data["task"]
        if AMOUNT_RE.search(task) and re.search(r"\d", task) and len(task.splitlines()) >= 2:
            docs.append(("task", task, "", None))
    return docs


def safe_out_dir(raw):
    raw = raw or "out"
    if os.path.isabs(raw) or ".." in raw.replace("\\", "/").split("/"):
        fail(f'out_dir "{raw}" must be a relative path inside ./out (declared write permission ./out/**).')
    norm = os.path.normpath(raw)
    if norm != "out" and not norm.startswith("out" + os.sep):
        fail(f'out_dir "{raw}" must be ./out or a folder inside it.')
    return norm


def slug(s, limit=40):
    s = re.sub(r"[^\w\-]+", "-", s, flags=re.UNICODE).strip("-_")
    return (s[:limit] or "unknown").lower()


def main():
    data = read_input()
    out_dir = safe_out_dir(data.get("out_dir"))
    csv_name = data.get("csv_name") or "invoices.csv"
    if not isinstance(csv_name, str) or "/" in csv_name or "\\" in csv_name or not csv_name.endswith(".csv"):
        fail('"csv_name" must be a plain file name ending in .csv, e.g. "invoices-2024.csv".')

    date_order = data.get("date_order", "auto")
    if date_order not in ("auto", "mdy", "dmy"):
        fail('"date_order" must be "auto", "mdy" (03/04 = March 4) or "dmy" (03/04 = 3 April).')
    docs = documents_from_input(data)
    if not docs:
        fail(
            'no invoice input. Pass "text" (invoice text), "texts" (a list) or "path" (file or folder); '
            "the task alone contained no invoice text.",
        )

    rows = []
    for name, text, note, file in docs:
        if text is None:
            rows.append({"source": name, "vendor": "", "invoice_number": "", "date": "", "currency": "",
                         "amount": "", "tax": "", "notes": note, "_file": file})
            continue
        record = parse_invoice(text, date_order)
        record["source"] = name
        record["_file"] = file
        rows.append(record)

    parsed = [r for r in rows if r["amount"]]
    if not parsed and all(r["notes"].startswith("skipped") for r in rows):
        fail(f"found {len(rows)} file(s) but none could be read as text: " + rows[0]["notes"], code=2)

    os.makedirs(out_dir, exist_ok=True)
    csv_path = os.path.join(out_dir, csv_name)
    fields = ["source", "vendor", "invoice_number", "date", "currency", "amount", "tax", "notes"]
    rows.sort(key=lambda r: (r["date"] or "9999", r["source"]))
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)

    copied = []
    if data.get("organize"):
        for r in rows:
            if not r["_file"] or not r["amount"]:
                continue
            month = r["date"][:7] if r["date"] else "undated"
            ext = os.path.splitext(r["_file"])[1].lower()
            target_dir = os.path.join(out_dir, "invoices", month)
            os.makedirs(target_dir, exist_ok=True)
            base = f"{r['date'] or 'undated'}_{slug(r['vendor'])}_{r['amount']}"
            target = os.path.join(target_dir, base + ext)
            n = 2
            while os.path.exists(target):
                target = os.path.join(target_dir, f"{base}-{n}{ext}")
                n += 1
            shutil.copy2(r["_file"], target)  # copy, never move: the originals stay where they were
            copied.append(target)

    print(f"## Invoice summary ({len(parsed)} of {len(rows)} parsed)\n")
    print("| date | vendor | number | amount | tax | notes |")
    print("| --- | --- | --- | ---: | ---: | --- |")
    for r in rows:
        amount = f"{r['amount']} {r['currency']}".strip() if r["amount"] else ""
        tax = r["tax"]
        cells = [r["date"], r["vendor"], r["invoice_number"], amount, tax, r["notes"] or r["source"]]
        print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    totals = {}
    for r in parsed:
        totals[r["currency"] or "?"] = totals.get(r["currency"] or "?", 0.0) + float(r["amount"])
    if totals:
        print("\n**Totals:** " + ", ".join(f"{v:,.2f} {k}" for k, v in sorted(totals.items())))
    print(f"\nCSV written to `{csv_path}`.")
    if copied:
        print(f"Copied {len(copied)} file(s) into `{os.path.join(out_dir, 'invoices')}/YYYY-MM/`.")
    unparsed = [r for r in rows if not r["amount"]]
    if unparsed:
        print(f"\n{len(unparsed)} document(s) need a manual look (see the notes column).")


if __name__ == "__main__":
    main()
