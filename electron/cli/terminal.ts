// What the CLI prints for a person comes in part from skills and models: a script's output, file
// names it made, declared paths, a model's answer or diff. A terminal acts on control characters
// in it (ESC sequences set the title, clear the screen, move the cursor, write the clipboard with
// OSC 52; a bidirectional override reverses what follows), so those are shown as escapes, the way
// `ls` shows a name with a newline. `--json` keeps every byte: JSON escapes them itself.

/** C0 controls but tab, newline and carriage return; DEL and C1 (0x9b acts as ESC [); bidi overrides and isolates. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same and the line breaks and tabs: for a value that must stay on its line. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
}

/** Text for a terminal: lines, tabs and carriage returns (progress bars) stay; other controls show as `\x1b`. */
export const forTerminal = (text: string): string => text.replace(CONTROL, escaped);

/** One value on its line (a file name, a declared path): line breaks show as `\n` too. */
export const oneLine = (text: string): string => text.replace(CONTROL_OR_BREAK, escaped);
