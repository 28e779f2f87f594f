/**
 * How deep YAML nests, read before the `yaml` package sees it. That package recurses once per
 * level: near 800 levels it reports a stack overflow, and closer to the limit V8 aborted the whole
 * process (a RegExp compiled with no stack left: "RegExpCompiler Allocation failed") on a
 * frontmatter of 8,000 `[` or `- `. No skill's metadata nests more than a few levels.
 */
export const MAX_YAML_NESTING = 100;

/**
 * The most a frontmatter or sidecar may hold to be read as YAML. Real ones hold a few KiB (the
 * corpus's largest is 2.4 KiB); the `yaml` package spent 0.5 s in the loader, and 27 s in the
 * validator, on one line of 120,000 `"`, and a megabyte of fields would ride along in every list.
 */
export const MAX_YAML_BYTES = 64 * 1024;

/** The size of `text` in UTF-8 bytes when it is over MAX_YAML_BYTES, else 0. */
export function oversizeBytes(text: string): number {
  // A UTF-16 unit is at most 3 bytes of UTF-8: nearly every text passes without being counted.
  if (text.length * 3 <= MAX_YAML_BYTES) return 0;
  const bytes = Buffer.byteLength(text);
  return bytes > MAX_YAML_BYTES ? bytes : 0;
}

/** Whole KiB, rounded up: 64 KiB and one byte is "65 KiB". */
export const kib = (bytes: number) => Math.ceil(bytes / 1024);

/**
 * The 1-based line where `text` first nests deeper than `max`, or 0. Counted generously (an
 * upper bound): open flow brackets anywhere, quotes ignored, plus the block indentation levels
 * and the `- ` / `? ` indicators that start the line. One pass, no RegExp.
 */
export function tooDeepAt(text: string, max = MAX_YAML_NESTING): number {
  let flow = 0;
  /** Indentation of each open block level. */
  const indents: number[] = [];
  let line = 1;
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32) {
        indent++;
        continue;
      }
      // `- - x` and `? x` open a level each on the same line.
      if ((c === 45 || c === 63) && (text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 10)) {
        indent++;
        if (++indicators + flow + indents.length > max) return line;
        continue;
      }
      lineStart = false;
      // A comment or a blank line (CR) opens no level.
      if (c !== 35 && c !== 13) {
        while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
        indents.push(indent);
      }
    }
    if (c === 91 || c === 123) flow++;
    else if ((c === 93 || c === 125) && flow > 0) flow--;
    if (flow + indents.length + indicators > max) return line;
  }
  return 0;
}
