import path from 'node:path';
import { z } from 'zod';
import type { SkillDetail, Violation } from '../../../shared/contract';
import { UNNAMED_TOOL } from '../llm/unnamedToolCalls';
import { readSkillFile, FILE_LIMITS } from '../skills/files';
import type { AttemptEnv, AttemptRequest, AttemptResult } from './attempt';
import { confine, resolveScriptCall } from './entrypoints';
import { runScript } from './scriptAttempt';

/** seed 002 / routing spec §18 `max_skill_delegate_depth = 2`. */
export const MAX_DELEGATION_DEPTH = 2;
/** What `read_skill_file` returns at most; a longer file says where it was cut. */
export const READ_CAP_CHARS = 40_000;

const RelPath = z
  .string()
  .min(1)
  .max(1024)
  .describe('Path relative to the skill folder, e.g. "references/guide.md"; never absolute, never "..".');

/** A path as given, or the file it names in a conventional folder ("guide.md" for references/guide.md). */
function knownFile(skill: SkillDetail, rel: string): string {
  const clean = rel.trim().replace(/^\.\//, '');
  const known = new Set(skill.files.filter((f) => f.kind === 'file').map((f) => f.path));
  if (known.has(clean)) return clean;
  // The skill's own folder first ("doc-helper/references/x.md"), as run_skill_script accepts it.
  const own = [skill.metadata.name, path.basename(skill.path)]
    .map((dir) => `${dir}/`)
    .find((prefix) => clean.startsWith(prefix) && known.has(clean.slice(prefix.length)));
  if (own) return clean.slice(own.length);
  return ['references', 'scripts', 'assets'].map((dir) => `${dir}/${clean}`).find((p) => known.has(p)) ?? rel;
}

/** The files the model may read: a link that leads out of the skill is none of them. */
const readableFiles = (skill: SkillDetail) =>
  skill.files.filter((f) => f.kind === 'file' && !('error' in confine(skill.path, f.path)));

/** The four model tools exactly as DESIGN §4 pins them. */
export const toolSchemas = {
  list_skill_files: {
    description: "List the skill's files with their sizes.",
    schema: z.object({}).strict(),
  },
  read_skill_file: {
    description:
      "Read one of the skill's files (text). References are loaded only when you read them. Large files are cut and say where.",
    schema: z.object({ path: RelPath }).strict(),
  },
  run_skill_script: {
    description:
      "Run one of the skill's scripts in the sandbox (the user may be asked to approve). Returns status, output, error, exit_code, duration_ms.",
    schema: z
      .object({
        script: RelPath.describe('The script, relative to the skill folder, e.g. "scripts/convert.py".'),
        args: z.array(z.string().max(4096)).max(64).optional().describe('Command-line arguments.'),
        input: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'An object passed to the script as the INPUT_JSON environment variable; its "task" is the task unless you set one.',
          ),
      })
      .strict(),
  },
  run_skill: {
    description: 'Delegate a sub-task to another skill by name; returns its result.',
    schema: z
      .object({
        skill: z.string().min(1).max(256).describe('The other skill\'s name, e.g. "csv-summary".'),
        task: z.string().max(20_000).describe('What the other skill should do, in full.'),
      })
      .strict(),
  },
} as const;

export type ToolName = keyof typeof toolSchemas;
export const TOOL_NAMES = Object.keys(toolSchemas) as ToolName[];

/** What the model gets for a tool call it sent without a name (see UNNAMED_TOOL). */
export const unnamedCall = (available: readonly string[]): string =>
  `The tool call had no name. Call one of these tools by its name: ${available.join(', ')}.`;

/** What a tool call returns to the model: always data, never a thrown error. */
export type ToolOutput = Record<string, unknown>;

export interface ToolContext {
  skill: SkillDetail;
  /** The run's task: a script the model runs without `input` gets it, as a script skill does. */
  task: string;
  runId: string;
  depth: number;
  chain: string[];
  env: AttemptEnv;
  /**
   * Why `skill` may not be run by a model, if it may not (explicit-only, never auto-select,
   * turned off): run_skill refuses it before anything runs or asks.
   */
  refuseDelegation?(skill: string): string | undefined;
  /** Run another skill by name one level deeper (the executor resolves and runs it). */
  delegate(req: Pick<AttemptRequest, 'task' | 'depth' | 'chain'> & { skill: string }): Promise<AttemptResult>;
}

/**
 * A run's output as the model reads it: at most `READ_CAP_CHARS`, the start and the end (where
 * a script prints its result or its error), saying what was cut. A flood would not fit in
 * any model's context, and the request carrying it would fail.
 */
export function capOutput(output: string): string {
  if (output.length <= READ_CAP_CHARS) return output;
  const half = READ_CAP_CHARS / 2;
  return `${head(output, half)}\n[… cut at ${READ_CAP_CHARS} characters of ${output.length}: the start and the end are shown …]\n${tail(output, half)}`;
}

/**
 * The first (last) `n` UTF-16 units of `text`, one fewer where the cut would split an emoji's or
 * another astral character's surrogate pair: half a pair is no character, and a server that
 * decodes the request's JSON to UTF-8 refuses it.
 */
const head = (text: string, n: number) =>
  text.slice(0, /[\uD800-\uDBFF]/.test(text[n - 1] ?? '') ? n - 1 : n);
const tail = (text: string, n: number) => {
  const start = text.length - n;
  return text.slice(/[\uDC00-\uDFFF]/.test(text[start] ?? '') ? start + 1 : start);
};

/**
 * What the sandbox stopped in a run that still ended well (a script that caught the refused
 * write and went on): DESIGN §4 says a blocked call is reported as such, so the model and the
 * user hear it instead of a bare success. Null when nothing was stopped or the run failed (its
 * error says it).
 */
export function stoppedNote(r: {
  status: string;
  error: string | null;
  violations?: Violation[];
}): string | null {
  if (r.error || r.status !== 'success' || !r.violations?.length) return null;
  const what = [...new Set(r.violations.map((v) => v.message))].slice(0, 3).join('; ');
  return `The sandbox stopped part of it: ${what}. The script went on and exited 0, so what needed that did not happen.`;
}

const brief = (r: AttemptResult) => ({
  status: r.status,
  output: capOutput(r.output),
  error: r.error ?? stoppedNote(r),
  exit_code: r.exit_code,
  duration_ms: r.duration_ms,
  // What the sandbox refused a run that went on anyway (a blocked run's error says it already),
  // so the model does not take a missing file or a fallback for the real result.
  ...(r.status !== 'blocked' && r.violations.length > 0
    ? { blocked: r.violations.map((v) => v.message) }
    : {}),
});

/**
 * A tool's arguments as JSON Schema text, for messages the model and the user read: without the
 * `$schema` draft URI, which says nothing about the call and reads as a link to follow.
 */
function schemaText(name: ToolName): string {
  const { $schema: _draft, ...schema } = z.toJSONSchema(toolSchemas[name].schema);
  return JSON.stringify(schema);
}

/** A schema error the model can act on: which argument, what was wrong. */
function schemaError(name: ToolName, error: z.ZodError): ToolOutput {
  const issues = error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
  return {
    status: 'error',
    error: `Invalid arguments for ${name}: ${issues}. Expected ${schemaText(name)}.`,
  };
}

const kindOf = (value: unknown): string =>
  Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;

/** A JSON string, quoted short enough for a one-line message. */
const quoted = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{"path": "<text>"}` when the tool's one required argument is a string: what the model likely meant. */
function exampleWith(tool: ToolName, text: string): string {
  const shape = toolSchemas[tool].schema.shape as Record<string, z.ZodType>;
  const required = Object.entries(shape).filter(([, field]) => !field.safeParse(undefined).success);
  const [only] = required;
  if (required.length !== 1 || !only[1].safeParse(text).success || text.length > 200) return '';
  return `, e.g. {${JSON.stringify(only[0])}: ${JSON.stringify(text)}}`;
}

/**
 * `null` for an argument the tool does not need is that argument left out: models tuned for
 * OpenAI's strict mode, where every field is required and an optional one is nullable, send
 * `"args": null`. A needed argument's null stays, and fails the schema.
 */
function withoutNullOptionals(tool: ToolName, args: Record<string, unknown>): Record<string, unknown> {
  const shape = toolSchemas[tool].schema.shape as Record<string, z.ZodType>;
  const optional = (key: string) => key in shape && shape[key].safeParse(undefined).success;
  return Object.fromEntries(Object.entries(args).filter(([key, v]) => v !== null || !optional(key)));
}

/**
 * The arguments object of one tool call, or the error the model gets instead. `raw` is what the
 * model loop hands over: a value the SDK parsed, or a string, which is the arguments' text as
 * the model sent it. A JSON string that holds a JSON object (arguments encoded twice, as some
 * models and proxies send) is taken as that object: one layer only, and only an object (as
 * LiveKit's agents do), so a string meant as a string never turns into something else. The AI
 * SDK alone would refuse such a call.
 */
export function toolArguments(tool: ToolName, raw: unknown): { value: unknown } | { error: string } {
  const schema = () => schemaText(tool);
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch (error) {
      return {
        error: `Invalid arguments for ${tool}: not valid JSON (${(error as Error).message}). Send one JSON object matching ${schema()}.`,
      };
    }
  }
  // No arguments at all ("null", or none sent) is an empty object, as the SDK reads an empty text.
  if (value === null || value === undefined) return { value: {} };
  if (typeof value === 'string') {
    try {
      const inner = JSON.parse(value) as unknown;
      if (isObject(inner)) return { value: inner };
    } catch {
      // A plain string: said below.
    }
  }
  if (isObject(value)) return { value: withoutNullOptionals(tool, value) };
  const what = typeof value === 'string' ? `a string (${quoted(value)})` : kindOf(value);
  const example = typeof value === 'string' ? exampleWith(tool, value) : '';
  return {
    error: `Invalid arguments for ${tool}: they are JSON, but ${what}, not an object. Send one JSON object matching ${schema()}${example}.`,
  };
}

/**
 * Run one model tool call (DESIGN §4). Unknown tools and arguments that fail the schema
 * come back as a tool result saying how to fix the call; so do denied and blocked runs.
 */
export async function callTool(name: string, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutput> {
  if (name === UNNAMED_TOOL) return { status: 'error', error: unnamedCall(TOOL_NAMES) };
  if (!Object.prototype.hasOwnProperty.call(toolSchemas, name))
    return { status: 'error', error: `Unknown tool "${name}". Available: ${TOOL_NAMES.join(', ')}.` };
  const tool = name as ToolName;
  const given = toolArguments(tool, rawArgs);
  if ('error' in given) return { status: 'error', error: given.error };
  const parsed = toolSchemas[tool].schema.safeParse(given.value);
  if (!parsed.success) return schemaError(tool, parsed.error);
  const args = parsed.data as Record<string, unknown>;
  const { skill } = ctx;
  switch (tool) {
    case 'list_skill_files':
      return {
        // A link that leads out of the skill is no file of it: read_skill_file refuses it too.
        files: readableFiles(skill).map((f) => ({ path: f.path, size: f.size })),
        truncated: skill.filesTruncated,
      };
    case 'read_skill_file': {
      const rel = knownFile(skill, String(args.path));
      const where = confine(skill.path, rel);
      if ('error' in where)
        return { status: 'error', error: `Cannot read ${String(args.path)}: ${where.error}.` };
      try {
        const file = await readSkillFile(skill.path, rel, {
          ...FILE_LIMITS,
          maxRead: READ_CAP_CHARS * 4,
          legacyText: true,
        });
        if (file.binary) return { status: 'error', error: `${rel} is a binary file (${file.size} bytes).` };
        const cut = file.content.length > READ_CAP_CHARS;
        const content = cut ? head(file.content, READ_CAP_CHARS) : file.content;
        const notes = [
          (cut || file.truncated) && `[cut at ${READ_CAP_CHARS} characters of ${file.size} bytes]`,
          file.encoding &&
            '[not valid UTF-8: read as Windows-1252 (Latin-1); if the text looks garbled, the file is in another encoding]',
        ].filter(Boolean);
        const note = notes.length > 0 ? notes.join(' ') : undefined;
        return note ? { path: rel, content, note } : { path: rel, content };
      } catch (error) {
        const names = readableFiles(skill).map((f) => f.path);
        return {
          status: 'error',
          error: `${(error as Error).message} Files: ${names.slice(0, 50).join(', ')}.`,
        };
      }
    }
    case 'run_skill_script': {
      const call = resolveScriptCall(
        skill.files,
        String(args.script),
        (args.args as string[] | undefined) ?? [],
        skill.metadata.name,
      );
      // A file the skill does not have: say which it has, so the model's next call can hit one.
      const files = skill.files.filter((f) => f.kind === 'file').map((f) => f.path);
      if (!files.includes(call.path) && !call.path.startsWith('/') && !call.path.split('/').includes('..')) {
        const scripts = files.filter((f) => f.startsWith('scripts/'));
        return {
          status: 'failure',
          error: `${skill.metadata.name} has no file ${call.path}. ${scripts.length ? `Its scripts: ${scripts.slice(0, 30).join(', ')}.` : `It has no scripts/ folder; its files: ${files.slice(0, 30).join(', ')}.`}`,
        };
      }
      // INPUT_JSON carries the task as a script skill's run does (DESIGN §4, apex-bridge), so a
      // script called without input still knows what to do; a task the model names stands.
      const input = (args.input as Record<string, unknown> | undefined) ?? {};
      const result = await runScript(
        {
          skill,
          script: { name: call.path, path: call.path, args: [] },
          args: call.args,
          input: { ...input, task: input.task ?? ctx.task },
          runId: ctx.runId,
        },
        ctx.env,
      );
      return brief(result);
    }
    case 'run_skill': {
      const target = String(args.skill);
      if (ctx.chain.includes(target))
        return {
          status: 'refused',
          error: `Refused: a delegation cycle (${[...ctx.chain, target].join(' → ')}).`,
        };
      if (ctx.depth + 1 > MAX_DELEGATION_DEPTH)
        return {
          status: 'refused',
          error: `Refused: delegation depth is limited to ${MAX_DELEGATION_DEPTH} (${[...ctx.chain, target].join(' → ')}).`,
        };
      const refusal = ctx.refuseDelegation?.(target);
      if (refusal) return { skill: target, status: 'refused', error: refusal };
      const result = await ctx.delegate({
        skill: target,
        task: String(args.task),
        depth: ctx.depth + 1,
        chain: [...ctx.chain, target],
      });
      return { skill: target, ...brief(result) };
    }
  }
}
