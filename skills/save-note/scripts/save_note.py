#!/usr/bin/env python3
"""Write a note to a file under ./out (the only place this skill may write).

INPUT_JSON (a JSON object):
    {
      "content": "text to save",       # or "text"; else taken from "task"
      "title": "Groceries",            # optional; becomes a "# Title" heading and the file name
      "filename": "groceries.md",      # optional; plain name or sub/path inside the folder
      "dir": "out/notes",              # optional; must be ./out or inside it (default "out")
      "mode": "create"                 # create (never overwrites; adds -2, -3 ...), overwrite, append
    }

Writes atomically (temp file + rename). Exit codes: 0 ok, 1 bad input, 2 write failed.
"""

import hashlib
import json
import os
import re
import sys
import tempfile
from datetime import datetime

MAX_BYTES = 1_000_000
MODES = ("create", "overwrite", "append")
# "save a note: ...", "write this down - ...", "记一下：..." — the part before the separator is the request.
PREFIX_RE = re.compile(
    r"^\s*(?:please\s+)?(?:save|write|jot|note|remember|keep|store|记|保存|写|存)[^:：\n]{0,40}?[:：]\s*",
    re.I,
)


def fail(message, code=1):
    sys.stderr.write(f"save-note: {message}\n")
    sys.exit(code)


def read_input():
    raw = os.environ.get("INPUT_JSON", "").strip()
    if not raw:
        fail('INPUT_JSON is empty. Pass e.g. {"content": "Buy milk", "title": "Groceries"}.')
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        fail(f"INPUT_JSON is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno}).")
    if not isinstance(data, dict):
        fail('INPUT_JSON must be a JSON object such as {"content": "..."}.')
    return data


def note_content(data):
    for key in ("content", "text"):
        if key in data:
            if not isinstance(data[key], str):
                fail(f'"{key}" must be a string.')
            if data[key].strip():
                return data[key]
            fail(f'"{key}" is empty: there is nothing to save.')
    task = data.get("task")
    if isinstance(task, str) and task.strip():
        body = PREFIX_RE.sub("", task, count=1)
        if body.strip() and body != task:
            return body
        fail('the task has no note after a "save a note:" style prefix. Pass "content" with the text to save.')
    fail('nothing to save. Pass "content" (the note text) and optionally "title" and "filename".')


def check_relative(raw, what):
    if not isinstance(raw, str) or not raw.strip():
        fail(f'"{what}" must be a non-empty string.')
    norm = raw.strip().replace("\\", "/")
    if norm.startswith("/") or norm.startswith("~") or re.match(r"^[A-Za-z]:", norm):
        fail(f'"{what}" must be relative, not "{raw}". Notes are written under ./out only.')
    parts = [p for p in norm.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        fail(f'"{what}" may not contain "..". Notes are written under ./out only.')
    if any(p.startswith(".") for p in parts):
        fail(f'"{what}" may not contain hidden names such as "{next(p for p in parts if p.startswith("."))}".')
    return parts


def slugify(text, limit=48):
    text = re.sub(r"[^\w\s-]", "", text, flags=re.UNICODE).strip().lower()
    text = re.sub(r"[\s_-]+", "-", text)
    return text[:limit].strip("-")


def main():
    data = read_input()
    mode = data.get("mode", "create")
    if mode not in MODES:
        fail(f'"mode" must be one of {", ".join(MODES)}.')
    content = note_content(data)
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or "\n" in title):
        fail('"title" must be a one-line string.')

    dir_parts = check_relative(data.get("dir", "out"), "dir")
    if not dir_parts or dir_parts[0] != "out":
        fail('"dir" must be "out" or a folder inside it, e.g. "out/notes" (declared write permission ./out/**).')

    if data.get("filename") is not None:
        name_parts = check_relative(data["filename"], "filename")
        if not name_parts:
            fail('"filename" is empty.')
    else:
        first_line = next((ln for ln in content.splitlines() if ln.strip()), "note")
        stem = slugify(title or first_line.lstrip("# ")) or "note"
        name_parts = [f"{datetime.now().strftime('%Y-%m-%d')}-{stem}"]
    if not os.path.splitext(name_parts[-1])[1]:
        name_parts[-1] += ".md"

    text = content if content.endswith("\n") else content + "\n"
    if title and mode != "append":
        text = f"# {title}\n\n{text}"
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_BYTES:
        fail("the note is larger than 1 MB; save it in smaller parts.")

    base = os.path.realpath(os.getcwd())
    target = os.path.join(base, *dir_parts, *name_parts)
    out_root = os.path.realpath(os.path.join(base, "out"))
    if os.path.commonpath([os.path.realpath(os.path.dirname(target)), out_root]) != out_root:
        fail("the target resolves outside ./out (through a symlink?); refusing to write.")

    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == "create" and os.path.exists(target):
            stem, ext = os.path.splitext(target)
            n = 2
            while os.path.exists(f"{stem}-{n}{ext}"):
                n += 1
            target = f"{stem}-{n}{ext}"
        if mode == "append" and os.path.exists(target):
            with open(target, "rb") as fh:
                existing = fh.read()
            if existing and not existing.endswith(b"\n"):
                existing += b"\n"
            encoded = existing + encoded
        action = "Appended to" if mode == "append" and os.path.exists(target) else (
            "Overwrote" if os.path.exists(target) else "Created"
        )
        fd, tmp = tempfile.mkstemp(prefix=".save-note-", dir=os.path.dirname(target))
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; a note should get the usual mode
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(encoded)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as err:
        fail(f"could not write {os.path.relpath(target, base)}: {err.strerror}", code=2)

    rel = os.path.relpath(target, base)
    digest = hashlib.sha256(encoded).hexdigest()[:12]
    lines = encoded.decode("utf-8").count("\n")
    print(f"{action} `{rel}` ({len(encoded):,} bytes, {lines} lines, sha256 {digest}).")


if __name__ == "__main__":
    main()
