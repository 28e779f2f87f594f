#!/usr/bin/env python3
"""Web search (Brave Search API) and readable page fetching for the web-research skill.

INPUT_JSON (a JSON object):
    {"action": "search", "query": "bwrap user namespaces ubuntu 24.04", "count": 5}
    {"action": "fetch", "url": "https://en.wikipedia.org/wiki/Bubblewrap", "max_chars": 8000}

"search" needs SEARCH_API_KEY (a Brave Search API subscription token). "fetch" only opens
hosts on ALLOWED_HOSTS, the same list as permissions.network.outbound in skill.yaml.
Standard library only. Exit codes: 0 ok, 1 bad input, 2 network or HTTP error,
3 SEARCH_API_KEY missing, 4 host not allowed.
"""

import gzip
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

# Keep in sync with skill.yaml permissions.network.outbound.
ALLOWED_HOSTS = {
    "api.search.brave.com",
    "en.wikipedia.org",
    "zh.wikipedia.org",
    "developer.mozilla.org",
    "docs.python.org",
    "nodejs.org",
    "github.com",
    "raw.githubusercontent.com",
    "arxiv.org",
}
SEARCH_ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
USER_AGENT = "SkillDeck-web-research/1.0"
MAX_DOWNLOAD = 3_000_000


def fail(message, code=1):
    sys.stderr.write(f"web-research: {message}\n")
    sys.exit(code)


def read_input():
    raw = os.environ.get("INPUT_JSON", "").strip()
    if not raw:
        fail('INPUT_JSON is empty. Pass {"action": "search", "query": "..."} or {"action": "fetch", "url": "https://..."}.')
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        fail(f"INPUT_JSON is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno}).")
    if not isinstance(data, dict):
        fail("INPUT_JSON must be a JSON object.")
    return data


def timeout_seconds():
    try:
        return max(5.0, min(60.0, float(os.environ.get("TIMEOUT") or 30) - 5))
    except ValueError:
        return 25.0


def http_get(url, headers):
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip", **headers})
    try:
        with urllib.request.urlopen(request, timeout=timeout_seconds()) as response:
            body = response.read(MAX_DOWNLOAD + 1)
            if response.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            charset = response.headers.get_content_charset() or "utf-8"
            return body[:MAX_DOWNLOAD].decode(charset, "replace"), response.headers.get_content_type()
    except urllib.error.HTTPError as err:
        hint = {401: " (is SEARCH_API_KEY valid?)", 403: " (forbidden)", 429: " (rate limited; wait and retry)"}
        fail(f"HTTP {err.code} from {urllib.parse.urlsplit(url).hostname}{hint.get(err.code, '')}.", code=2)
    except urllib.error.URLError as err:
        fail(f"could not reach {urllib.parse.urlsplit(url).hostname}: {err.reason}. Is the network allowed?", code=2)
    except TimeoutError:
        fail(f"{urllib.parse.urlsplit(url).hostname} did not answer within {timeout_seconds():.0f} s.", code=2)


def search(data):
    query = data.get("query") or data.get("task")
    if not isinstance(query, str) or not query.strip():
        fail('"query" must be a non-empty string.')
    count = data.get("count", 5)
    if not isinstance(count, int) or not 1 <= count <= 20:
        fail('"count" must be an integer from 1 to 20.')
    key = os.environ.get("SEARCH_API_KEY", "").strip()
    if not key:
        fail(
            "SEARCH_API_KEY is not set. Get a Brave Search API key (https://brave.com/search/api/) and add it "
            "in SkillDeck's settings (secrets), or export SEARCH_API_KEY before starting SkillDeck.",
            code=3,
        )
    url = f"{SEARCH_ENDPOINT}?{urllib.parse.urlencode({'q': query.strip(), 'count': count})}"
    text, _ = http_get(url, {"Accept": "application/json", "X-Subscription-Token": key})
    try:
        results = json.loads(text).get("web", {}).get("results", [])
    except (json.JSONDecodeError, AttributeError):
        fail("the search API returned something that is not the expected JSON.", code=2)
    if not results:
        print(f'No results for "{query.strip()}".')
        return
    print(f'## Search results for "{query.strip()}"\n')
    for i, r in enumerate(results[:count], 1):
        snippet = re.sub(r"<[^>]+>", "", r.get("description", "")).strip()
        print(f"{i}. **{r.get('title', '(no title)')}** — {r.get('url', '')}")
        if snippet:
            print(f"   {snippet}")


class TextExtractor(HTMLParser):
    """Readable text of a page: title, headings and paragraphs; scripts and chrome dropped."""

    SKIP = {"script", "style", "noscript", "svg", "nav", "footer", "header", "aside", "form", "template"}
    BLOCK = {"p", "div", "section", "article", "li", "tr", "br", "pre", "blockquote", "table", "ul", "ol", "dd", "dt"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip_depth, self.title, self.in_title = [], 0, "", False

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip_depth += 1
        elif tag == "title":
            self.in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skip_depth:
            self.skip_depth -= 1
        elif tag == "title":
            self.in_title = False
        elif tag != "li" and (tag in self.BLOCK or re.fullmatch(r"h[1-6]", tag)):
            self.parts.append("\n")

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        elif not self.skip_depth:
            self.parts.append(data)

    def text(self):
        raw = "".join(self.parts)
        raw = re.sub(r"[ \t\r\f\v]+", " ", raw)
        raw = re.sub(r" *\n *", "\n", raw)
        return re.sub(r"\n{3,}", "\n\n", raw).strip()


def fetch(data):
    url = data.get("url")
    if not isinstance(url, str) or not url.strip():
        fail('"url" must be a non-empty string such as "https://en.wikipedia.org/wiki/JSON".')
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("https", "http") or not parts.hostname:
        fail(f'"{url}" is not an http(s) URL.')
    if parts.hostname not in ALLOWED_HOSTS:
        fail(
            f"{parts.hostname} is not in this skill's network allow-list ({', '.join(sorted(ALLOWED_HOSTS))}). "
            "Ask the user before widening permissions.network.outbound in skill.yaml.",
            code=4,
        )
    max_chars = data.get("max_chars", 8000)
    if not isinstance(max_chars, int) or max_chars < 200:
        fail('"max_chars" must be an integer of at least 200.')
    body, content_type = http_get(url.strip(), {"Accept": "text/html,text/plain;q=0.9,*/*;q=0.5"})
    if content_type in ("text/html", "application/xhtml+xml"):
        extractor = TextExtractor()
        extractor.feed(body)
        title, text = extractor.title.strip(), extractor.text()
    else:
        title, text = "", body.strip()
    print(f"## {title or url.strip()}\n\nSource: {url.strip()}\n")
    print(text[:max_chars].rstrip())
    if len(text) > max_chars:
        print(f"\n[… cut at {max_chars:,} of {len(text):,} characters]")


def main():
    data = read_input()
    action = data.get("action") or ("fetch" if data.get("url") else "search")
    if action == "search":
        search(data)
    elif action == "fetch":
        fetch(data)
    else:
        fail('"action" must be "search" or "fetch".')


if __name__ == "__main__":
    main()
