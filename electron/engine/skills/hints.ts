/**
 * Routing hints from the start of a SKILL.md body (issue 10 §2): headings, and the bullets and
 * quoted requests of a "When to use" / "Triggers" / "Examples" section. The start-up scan
 * already reads the first 4 KiB of every SKILL.md, so these cost a decode of bytes in memory
 * and no extra I/O; the rest of the body stays unread until a skill is opened.
 */
const HINT_SECTION_RE =
  /when to use|use (?:this|it) (?:skill )?when|use cases?|triggers?|examples?|what it does|capabilit|适用|使用场景|何时使用|触发/i;
/** Headings every skill has: they say nothing about what one skill is for. */
const BOILERPLATE_RE =
  /^(?:overview|setup|installation|install|quick ?start|usage|requirements|prerequisites|configuration|notes?|license|references?|examples?|output(?: format)?|troubleshooting|faq|commands|workflow|rules|tips|best practices|error handling|api reference|links|environment|authentication|getting started|how to use|features|table of contents|options|flags|step \d+.*)$/i;
const MAX_HINTS = 24;

/** The routing hints of the body text given (the part of the body the scan read). */
export function bodyHints(body: string): string[] {
  const hints: string[] = [];
  let inSection = false;
  let inFence = false;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (inFence || !line) continue;
    const heading = /^#{1,4}\s+(.+)$/.exec(line);
    if (heading) {
      const text = heading[1].replace(/[*_`#]/g, '').trim();
      inSection = HINT_SECTION_RE.test(text);
      if (!BOILERPLATE_RE.test(text) && !inSection && text.length <= 80) hints.push(text);
    } else if (inSection && /^(?:[-*+]|\d+[.)])\s+/.test(line)) {
      hints.push(
        line
          .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
          .replace(/[*_`]/g, '')
          .slice(0, 160),
      );
    }
    if (hints.length >= MAX_HINTS) break;
  }
  return hints;
}
