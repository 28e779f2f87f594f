import type { RunResult } from '../../../shared/contract';
import type { SkillSnapshot } from './snapshot';
import { parseUsage, type UsageError } from './usage';

/** One stack frame, with its skill-relative path when the file belongs to the skill. */
export interface Frame {
  file: string;
  line: number;
  /** `scripts/sum.py` when the frame's file is one of the skill's own files. */
  skillPath?: string;
}

/** The last Python traceback, Node stack or shell error line in stderr. */
export interface Trace {
  /** `KeyError`, `TypeError`, … */
  type: string;
  message: string;
  frames: Frame[];
  /** The innermost frame that lies in the skill's own files. */
  skillFrame?: Frame;
  /** The innermost frame overall lies in the skill (not in a library). */
  innermostInSkill: boolean;
  /** The source line Python printed under the innermost frame, when it did. */
  sourceLine?: string;
  /** Every source line printed under any frame. */
  sources: string[];
}

/** Facts read from a failed run's stderr, error and output (no judgement yet). */
export interface Evidence {
  trace?: Trace;
  usage?: UsageError;
  /** Skill-relative paths the failure says do not exist (and that indeed do not). */
  missingPaths: string[];
  /** A program the run could not start (`command not found`, exit 127, ENOENT on a program). */
  missingProgram?: string;
  /** A library or module that is not installed (`ModuleNotFoundError`, `Cannot find module 'x'`). */
  missingModule?: string;
  /** An external host or service that could not be reached. */
  network?: string;
  /** The OS refused an operation (`Permission denied`, `EACCES`, read-only file system). */
  permission?: string;
  /** Environment variables the failure names as unset. */
  envVars: string[];
  /** The script says the input is outside what it can do ("only reads CSV"). */
  capability?: string;
  /** Distinct error lines, normalized (root-cause count). */
  errorLines: string[];
  /** stdout, a model answer or output files were produced before the failure. */
  partialOutput: boolean;
  /** The whole failure text (stderr + error), for signatures and prompts. */
  text: string;
}

const FRAME_PY = /^\s*File "(.+?)", line (\d+)(?:, in .+)?$/;
const FRAME_JS = /^\s+at (?:.*? \()?(.+?):(\d+):\d+\)?$/;
/**
 * `.` stops at a lone CR (a progress bar) or a Unicode line separator, so no frame pattern can
 * match a line holding one past its indentation; tried, they rescanned up to it from each place
 * they could go on (every `", line N, in `, every `.sh: `): quadratic in the line's length.
 */
const BREAK = /[\r\u2028\u2029]/;
/** FRAME_JS's end, checked first: without it, its `(.+?)` ran to the line's end after every ` (`. */
const FRAME_JS_END = /:\d+:\d+\)?$/;
const framePy = (line: string) => (BREAK.test(line.trimStart()) ? null : FRAME_PY.exec(line));
const frameJs = (line: string) =>
  FRAME_JS_END.test(line) && !BREAK.test(line.trimStart()) ? FRAME_JS.exec(line) : null;
const EXC_LINE =
  /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|KeyError|StopIteration))(?::\s?(.*))?$/;
const ENV_NAME = /\b([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[0-9]*)\b/;
const PERMISSION =
  /Permission denied|Operation not permitted|Read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b/;
const UNREACHABLE =
  /\b(?:connection refused|name or service not known|temporary failure in name resolution|could not resolve host|network is unreachable|getaddrinfo failed|no route to host|failed to establish a new connection)/i;
const CAPABILITY =
  /unsupported (?:file|input|format|type|language)|not supported|only (?:reads|supports|handles|accepts|works with)/i;
const CANNOT = /cannot (?:handle|process) /i;
const CANNOT_WHAT = /files?|format|input/i;
// File names in any script (references/指南.md); after no ASCII name character, so after CJK text too.
const SKILL_DIRS =
  /(?<![A-Za-z0-9_.-])((?:references|scripts|assets|templates)\/[\p{L}\p{N}\p{M}_.\-/]*[\p{L}\p{N}\p{M}_-])/gu;

/** Reads the evidence of one failed run against the skill's files. */
export function gatherEvidence(run: RunResult, skill: SkillSnapshot): Evidence {
  const text = [run.stderr, run.error ?? ''].filter(Boolean).join('\n');
  const lines = text.split(/\r?\n/);
  const trace =
    parsePythonTrace(lines, skill) ?? parseNodeTrace(lines, skill) ?? parseShellError(lines, skill);
  return {
    trace,
    usage: parseUsage(text),
    missingPaths: missingSkillPaths(text, skill),
    missingProgram: missingProgram(text, run, trace),
    missingModule: missingModule(text, trace),
    network: networkFailure(text, lines),
    permission: lineWhere(lines, (l) => PERMISSION.test(l))?.slice(0, 200),
    envVars: unsetEnvVars(text, trace),
    capability: lineWhere(lines, capabilityMismatch)?.slice(0, 300),
    // `error` usually repeats stderr's last line: count it only when stderr said nothing.
    errorLines: errorLines(run.stderr.trim() ? run.stderr.split(/\r?\n/) : lines),
    partialOutput: run.output.trim().length > 0 || run.files.length > 0,
    text,
  };
}

/** Maps a frame's file to a skill-relative path (the run may have seen the skill under another root). */
export function skillPathOf(file: string, skill: SkillSnapshot): string | undefined {
  const norm = file.replace(/\\/g, '/');
  let best: string | undefined;
  for (const rel of skill.listing) {
    if (norm === rel || norm.endsWith(`/${rel}`)) if (!best || rel.length > best.length) best = rel;
  }
  return best;
}

function finishTrace(
  type: string,
  message: string,
  frames: Frame[],
  sourceLine?: string,
  sources: string[] = [],
): Trace {
  const skillFrame = [...frames].reverse().find((f) => f.skillPath);
  const innermost = frames[frames.length - 1];
  return {
    type,
    message,
    frames,
    skillFrame,
    innermostInSkill: !!innermost?.skillPath,
    sourceLine,
    sources,
  };
}

function parsePythonTrace(lines: string[], skill: SkillSnapshot): Trace | undefined {
  let start = -1;
  lines.forEach((l, i) => {
    if (l.startsWith('Traceback (most recent call last)')) start = i;
  });
  if (start < 0) {
    // A SyntaxError raised at compile time has frames but no "Traceback" header.
    const i = lines.findIndex((l) => framePy(l));
    if (i < 0) return undefined;
    start = i - 1;
  }
  const frames: Frame[] = [];
  const sources: string[] = [];
  let sourceLine: string | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    const frame = framePy(line);
    if (frame) {
      frames.push({ file: frame[1], line: Number(frame[2]), skillPath: skillPathOf(frame[1], skill) });
      sourceLine = undefined;
      continue;
    }
    if (/^\s/.test(line) || line === '') {
      if (sourceLine === undefined && line.trim() && !/^[\s~^]+$/.test(line)) {
        sourceLine = line.trim();
        sources.push(sourceLine);
      }
      continue;
    }
    const exc = EXC_LINE.exec(line.trim()) ?? /^([A-Za-z_][\w.]*)(?::\s?(.*))?$/.exec(line.trim());
    if (exc && frames.length > 0) return finishTrace(exc[1], exc[2] ?? '', frames, sourceLine, sources);
    break;
  }
  return undefined;
}

function parseNodeTrace(lines: string[], skill: SkillSnapshot): Trace | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const exc = /^(?:Uncaught )?([A-Z]\w*(?:Error|Exception))(?::\s?(.*))?$/.exec(lines[i].trim());
    if (!exc) continue;
    const frames: Frame[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const m = frameJs(lines[j]);
      if (!m) break;
      if (m[1].startsWith('node:')) continue;
      frames.push({ file: m[1], line: Number(m[2]), skillPath: skillPathOf(m[1], skill) });
    }
    if (frames.length === 0) continue;
    // Node lists the innermost frame first; keep Python's order (outermost first).
    return finishTrace(exc[1], exc[2] ?? '', frames.reverse());
  }
  return undefined;
}

/**
 * A shell script's own error, which is its traceback: bash's `file: line 4: N: unbound variable`
 * or dash's `file: 4: …`, in one of the skill's shell scripts. A program it could not find is
 * a missing dependency (read before this), not a bug in the script.
 */
function parseShellError(lines: string[], skill: SkillSnapshot): Trace | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    const m = BREAK.test(line) ? null : /^(.+?\.(?:sh|bash)): (?:line )?(\d+): (.+)$/.exec(line);
    if (!m || /command not found|not found$/.test(m[3])) continue;
    const skillPath = skillPathOf(m[1], skill);
    if (!skillPath) continue;
    return finishTrace('error', m[3].trim(), [{ file: m[1], line: Number(m[2]), skillPath }]);
  }
  return undefined;
}

/**
 * The first line `test` accepts, trimmed. Not one `^[^\n]*(?:…)[^\n]*` pattern with the `m` flag
 * over the whole text: that flag starts a line after every lone CR too, and from each one
 * `[^\n]*` ran to the real line's end, so a progress bar of carriage returns took minutes.
 */
function lineWhere(lines: string[], test: (line: string) => boolean): string | undefined {
  return lines.find(test)?.trim();
}

/** Paths under the skill's own folders that the failure names and that do not exist. */
function missingSkillPaths(text: string, skill: SkillSnapshot): string[] {
  if (
    !/no such file|not found|no file|cannot find|can't find|does not exist|missing|ENOENT|cannot open/i.test(
      text,
    )
  )
    return [];
  const out = new Set<string>();
  for (const m of text.matchAll(SKILL_DIRS)) {
    const rel = m[1].replace(/\/+$/, '');
    if (!skill.listing.includes(rel) && !skill.listing.some((f) => f.startsWith(`${rel}/`))) out.add(rel);
  }
  return [...out];
}

function missingProgram(text: string, run: RunResult, trace?: Trace): string | undefined {
  const notFound =
    /(?:^|\n)(?:[^\n:]*: )?(?:line \d+: )?([\w.+-]+): (?:command )?not found/i.exec(text) ??
    /spawn ([\w./+-]+) ENOENT/.exec(text) ??
    /env: '?([\w.+-]+)'?: No such file or directory/.exec(text);
  if (notFound) return notFound[1];
  // Python's subprocess raises FileNotFoundError naming the program it could not start.
  if (trace?.type === 'FileNotFoundError' && trace.frames.some((f) => /subprocess\.py$/.test(f.file))) {
    return /No such file or directory: '([^']+)'/.exec(trace.message)?.[1] ?? 'a program';
  }
  if (run.exit_code === 127) return run.command[0] ?? 'a program';
  return undefined;
}

function missingModule(text: string, trace?: Trace): string | undefined {
  const py = /No module named '([^']+)'/.exec(text);
  if (py && (trace?.type === 'ModuleNotFoundError' || trace?.type === 'ImportError' || !trace)) return py[1];
  const js = /Cannot find (?:module|package) '([^']+)'/.exec(text);
  // `./lib` is a file of the skill, not an installed package.
  if (js && !js[1].startsWith('.') && !js[1].startsWith('/')) return js[1];
  return undefined;
}

function networkFailure(text: string, lines: string[]): string | undefined {
  // Error codes are matched case-sensitively: `ENOTFOUND` must not match inside `FileNotFoundError`.
  const code = /\b(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH)\b[^\n]*/.exec(text);
  return (code?.[0].trim() ?? lineWhere(lines, (l) => UNREACHABLE.test(l)))?.slice(0, 200);
}

function unsetEnvVars(text: string, trace?: Trace): string[] {
  const names = new Set<string>();
  // `os.environ["X"]` raises from inside `os` (3.11+: `<frozen os>`), so look at every frame's line.
  if (trace?.type === 'KeyError' && trace.sources.some((l) => /environ/.test(l))) {
    const key = /'([A-Z][A-Z0-9_]+)'/.exec(trace.message)?.[1];
    if (key) names.add(key);
  }
  const phrases = [
    /(?:environment variable|env var(?:iable)?|env)\s+['"`$]?([A-Z][A-Z0-9_]{2,})['"`]?\s+(?:is\s+)?(?:not set|missing|unset|required|empty)/gi,
    /['"`$]?(?<![A-Z])([A-Z][A-Z0-9_]{2,})['"`]? (?:environment variable )?(?:is )?(?:not set|unset|is missing|is required|must be set)/g,
    /(?:please set|set the|missing (?:environment variable|env(?: var)?)|requires?)\s+['"`$]?([A-Z][A-Z0-9_]{2,})\b/gi,
  ];
  for (const re of phrases) {
    for (const m of text.matchAll(re))
      if (ENV_NAME.test(m[1]) && m[1] === m[1].toUpperCase()) names.add(m[1]);
  }
  return [...names];
}

/** The script says the input is outside what it can do: "only reads CSV", "cannot process xlsx files". */
function capabilityMismatch(line: string): boolean {
  if (CAPABILITY.test(line)) return true;
  // As one pattern, `cannot (handle|process) .*(files?|format|input)` ran to the line's end from
  // each repeat of its first words; what follows the first of them holds what follows any other.
  const cannot = CANNOT.exec(line);
  return cannot !== null && CANNOT_WHAT.test(line.slice(cannot.index + cannot[0].length));
}

/** Distinct error lines: exception lines, `prog: error: …`, `Error: …`, normalized for counting. */
function errorLines(lines: string[]): string[] {
  const out = new Set<string>();
  for (const raw of lines) {
    const line = raw.trim();
    if (
      EXC_LINE.test(line) ||
      /^(?:[\w.-]+: )?(?:error|fatal|Error|ERROR|FATAL)\b[:!]/.test(line) ||
      /: error: /.test(line)
    ) {
      out.add(line.replace(/\d+/g, 'N').slice(0, 200));
    }
  }
  return [...out];
}
