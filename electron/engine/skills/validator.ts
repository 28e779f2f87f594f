/**
 * A port of the reference validator `skills-ref` (agentskills/agentskills @ 69ef37e:
 * validator.py, parser.py, prompt.py; skill-formats.md §1.4), messages included. It is a
 * report, not a gate: the loader stays lenient. Its parser is strictyaml, emulated here with
 * the `yaml` failsafe schema (every scalar stays a string, so `version: 1.0` is "1.0") plus
 * strictyaml's refusals: flow style (`{...}` / `[...]`), anchors and aliases, tags, duplicate keys.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import YAML, { isAlias, isCollection, isNode, isScalar } from 'yaml';
import type { ValidationReport } from '../../../shared/contract';
import { kib, MAX_YAML_BYTES, MAX_YAML_NESTING, oversizeBytes, tooDeepAt } from './yamlDepth';

export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
/** Allowed frontmatter fields per the Agent Skills spec. */
export const ALLOWED_FIELDS = [
  'allowed-tools',
  'compatibility',
  'description',
  'license',
  'metadata',
  'name',
];

/** `skills_ref.errors`: ParseError (file or YAML) and ValidationError (required fields). */
export class SkillsRefError extends Error {
  constructor(
    readonly kind: 'ParseError' | 'ValidationError',
    message: string,
  ) {
    super(message);
    this.name = kind;
  }
}

const parseError = (message: string) => new SkillsRefError('ParseError', message);
const validationError = (message: string) => new SkillsRefError('ValidationError', message);

type Frontmatter = Record<string, unknown>;

const isFile = (p: string) =>
  fsp.stat(p).then(
    (s) => s.isFile(),
    // Stryker disable next-line ArrowFunction: its one caller reads undefined as false too
    () => false,
  );

/** `find_skill_md`: the skill file, preferring `SKILL.md` and accepting `skill.md`; null when absent. */
export async function findSkillMd(skillDir: string): Promise<string | null> {
  for (const name of ['SKILL.md', 'skill.md']) {
    const p = path.join(skillDir, name);
    if (await isFile(p)) return p;
  }
  return null;
}

/** Python's `read_text()`: UTF-8 with universal newlines (a BOM is kept, as Python keeps it). */
async function readText(file: string): Promise<string> {
  const bytes = await fsp.readFile(file);
  let text: string;
  try {
    // ignoreBOM keeps the BOM in the text (the decoder's default drops it, unlike Python).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw parseError(`${path.basename(file)} is not valid UTF-8`);
  }
  return text.replace(/\r\n?/g, '\n');
}

/** `parse_frontmatter`: the frontmatter mapping (strictyaml semantics) and the stripped body. */
export function parseFrontmatter(content: string): { metadata: Frontmatter; body: string } {
  if (!content.startsWith('---')) throw parseError('SKILL.md must start with YAML frontmatter (---)');
  // Python's content.split("---", 2): the closing `---` may sit anywhere, not only on its own line.
  const first = content.indexOf('---', 3);
  if (first === -1) throw parseError('SKILL.md frontmatter not properly closed with ---');
  const frontmatter = content.slice(3, first);
  const body = content.slice(first + 3).trim();

  // Not read as YAML at all past SkillDeck's cap: the `yaml` package took 27 s on a line of 120,000 `"`.
  const size = oversizeBytes(frontmatter);
  if (size > 0)
    throw parseError(
      `SKILL.md frontmatter is ${kib(size)} KiB, over SkillDeck's ${kib(MAX_YAML_BYTES)} KiB limit; move long text into the body or references/`,
    );
  // Too deep for the `yaml` package, which recursed into a process abort (yamlDepth.ts).
  const deep = tooDeepAt(frontmatter);
  if (deep > 0)
    throw parseError(
      `Invalid YAML in frontmatter: it nests more than ${MAX_YAML_NESTING} levels deep (line ${deep})`,
    );
  const doc = parseStrict(frontmatter);
  if (doc.errors.length > 0)
    throw parseError(`Invalid YAML in frontmatter: ${firstError(frontmatter, doc.errors)}`);
  const refusal = strictYamlRefusal(doc);
  if (refusal) throw parseError(`Invalid YAML in frontmatter: ${refusal}`);
  const metadata: unknown = doc.toJS();
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw parseError('SKILL.md frontmatter must be a YAML mapping');
  }
  const out = metadata as Frontmatter;
  const meta = out.metadata;
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    out.metadata = Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, pyStr(v)]));
  }
  return { metadata: out, body };
}

const STRICT = { schema: 'failsafe', uniqueKeys: true, logLevel: 'silent' } as const;
/** How many errors are worded in full, each with a scan of its line (the package's `prettyErrors`). */
const PRETTY_ERRORS = 20;

/**
 * The frontmatter read with errors left unformatted and without stacks: the `yaml` package words
 * every error with a scan of its line and captures a stack for each, so a line of 60,000 `"`
 * (30,000 errors) took 12 s. The loader reads YAML the same way (yamlLenient.ts).
 */
function parseStrict(text: string): YAML.Document.Parsed {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return YAML.parseDocument(text, { ...STRICT, prettyErrors: false });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The first error as the package words it ("… at line 4, column 6:", the line, a caret) when
 * there are few; past PRETTY_ERRORS, by its line and column alone.
 */
function firstError(text: string, errors: YAML.YAMLError[]): string {
  if (errors.length <= PRETTY_ERRORS) return YAML.parseDocument(text, STRICT).errors[0].message;
  const [{ message, pos }] = errors;
  // Stryker disable next-line ConditionalExpression: parsing text puts every error at an offset in it (0 or more in 200,000 random frontmatters); the -1 the package's own formatter guards is for hand-built CST tokens
  if (pos[0] < 0) return message;
  const line = text.slice(0, pos[0]).split('\n').length;
  return `${message} at line ${line}, column ${pos[0] - text.lastIndexOf('\n', pos[0] - 1)}`;
}

/** What strictyaml refuses that the `yaml` package accepts. */
function strictYamlRefusal(doc: YAML.Document): string | undefined {
  let found: string | undefined;
  YAML.visit(doc, (_key, node) => {
    if (isAlias(node) || (isNode(node) && node.anchor))
      found = 'anchors and aliases are not allowed (strictyaml)';
    else if (isCollection(node) && node.flow) {
      found =
        'flow style ({...} or [...]) is not allowed (strictyaml); write mappings and lists in block style';
    } else if ((isScalar(node) || isCollection(node)) && node.tag)
      found = `tags (${node.tag}) are not allowed (strictyaml)`;
    return found ? YAML.visit.BREAK : undefined;
  });
  return found;
}

/** Python `str(v)` for a value strictyaml produced (str, list, dict). */
function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

/** Python `repr` of what the failsafe schema yields: strings (an empty value too), lists, maps. */
function pyRepr(v: unknown): string {
  if (typeof v === 'string') {
    const quote = v.includes("'") && !v.includes('"') ? '"' : "'";
    const body = v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
    .join(', ')}}`;
}

/** `SkillProperties.to_dict()`: the frontmatter fields, with the hyphenated `allowed-tools`. */
export interface SkillProperties {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  'allowed-tools'?: string;
  metadata?: Record<string, string>;
}

/** `read_properties`: parse only; raises on a missing file or missing required fields. */
export async function readProperties(skillDir: string): Promise<SkillProperties> {
  const file = await findSkillMd(skillDir);
  if (file === null) throw parseError(`SKILL.md not found in ${skillDir}`);
  const { metadata } = parseFrontmatter(await readText(file));
  if (!('name' in metadata)) throw validationError('Missing required field in frontmatter: name');
  if (!('description' in metadata))
    throw validationError('Missing required field in frontmatter: description');
  const { name, description } = metadata;
  if (typeof name !== 'string' || !name.trim())
    throw validationError("Field 'name' must be a non-empty string");
  if (typeof description !== 'string' || !description.trim()) {
    throw validationError("Field 'description' must be a non-empty string");
  }
  const props: SkillProperties = { name: name.trim(), description: description.trim() };
  if (metadata.license !== undefined) props.license = metadata.license as string;
  if (metadata.compatibility !== undefined) props.compatibility = metadata.compatibility as string;
  const tools = metadata['allowed-tools'];
  if (typeof tools === 'string') props['allowed-tools'] = tools;
  else if (Array.isArray(tools) && tools.every((t) => typeof t === 'string'))
    props['allowed-tools'] = tools.join(' ');
  else if (tools !== undefined)
    throw validationError("Field 'allowed-tools' must be either a string or a list of strings");
  const meta = metadata.metadata as Record<string, string> | undefined;
  // Block-style YAML has no empty mapping: a bare `metadata:` is the empty string.
  if (meta && typeof meta === 'object') props.metadata = meta;
  return props;
}

const htmlEscape = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

/** `to_prompt`: the `<available_skills>` block recommended for Claude models. */
export async function toPrompt(skillDirs: string[]): Promise<string> {
  const lines = ['<available_skills>'];
  for (const dir of skillDirs) {
    const skillDir = path.resolve(dir);
    const props = await readProperties(skillDir);
    // readProperties has just found it.
    const location = (await findSkillMd(skillDir))!;
    lines.push(
      '<skill>',
      '<name>',
      htmlEscape(props.name),
      '</name>',
      '<description>',
      htmlEscape(props.description),
      '</description>',
    );
    lines.push('<location>', htmlEscape(location), '</location>', '</skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

const codePoints = (s: string) => [...s].length;

function validateName(name: unknown, skillDir: string | undefined): string[] {
  if (typeof name !== 'string' || !name.trim()) return ["Field 'name' must be a non-empty string"];
  const errors: string[] = [];
  const n = name.trim().normalize('NFKC');
  if (codePoints(n) > MAX_SKILL_NAME_LENGTH) {
    errors.push(
      `Skill name '${n}' exceeds ${MAX_SKILL_NAME_LENGTH} character limit (${codePoints(n)} chars)`,
    );
  }
  if (n !== n.toLowerCase()) errors.push(`Skill name '${n}' must be lowercase`);
  if (n.startsWith('-') || n.endsWith('-')) errors.push('Skill name cannot start or end with a hyphen');
  if (n.includes('--')) errors.push('Skill name cannot contain consecutive hyphens');
  // Python's str.isalnum(): any Unicode letter or number, so i18n names pass.
  if (![...n].every((c) => c === '-' || /[\p{L}\p{N}]/u.test(c))) {
    errors.push(
      `Skill name '${n}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
    );
  }
  if (skillDir) {
    const dirName = path.basename(skillDir);
    if (dirName.normalize('NFKC') !== n)
      errors.push(`Directory name '${dirName}' must match skill name '${n}'`);
  }
  return errors;
}

/** `validate_metadata`: the rules on an already parsed frontmatter mapping. */
export function validateMetadata(metadata: Frontmatter, skillDir?: string): string[] {
  const errors: string[] = [];
  const extra = Object.keys(metadata)
    .filter((k) => !ALLOWED_FIELDS.includes(k))
    .sort();
  if (extra.length > 0) {
    const allowed = `[${ALLOWED_FIELDS.map((f) => `'${f}'`).join(', ')}]`;
    errors.push(`Unexpected fields in frontmatter: ${extra.join(', ')}. Only ${allowed} are allowed.`);
  }
  if (!('name' in metadata)) errors.push('Missing required field in frontmatter: name');
  else errors.push(...validateName(metadata.name, skillDir));

  const description = metadata.description;
  if (!('description' in metadata)) errors.push('Missing required field in frontmatter: description');
  else if (typeof description !== 'string' || !description.trim())
    errors.push("Field 'description' must be a non-empty string");
  else if (codePoints(description) > MAX_DESCRIPTION_LENGTH) {
    errors.push(
      `Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${codePoints(description)} chars)`,
    );
  }

  if ('compatibility' in metadata) {
    const c = metadata.compatibility;
    if (typeof c !== 'string') errors.push("Field 'compatibility' must be a string");
    else if (codePoints(c) > MAX_COMPATIBILITY_LENGTH) {
      errors.push(
        `Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${codePoints(c)} chars)`,
      );
    }
  }
  if ('allowed-tools' in metadata) {
    const t = metadata['allowed-tools'];
    if (Array.isArray(t)) {
      if (!t.every((x) => typeof x === 'string'))
        errors.push("Field 'allowed-tools' list items must all be strings");
    } else if (typeof t !== 'string')
      errors.push("Field 'allowed-tools' must be either a string or a list of strings");
  }
  return errors;
}

/** `validate`: the strict reference report for a skill folder (`skills validate PATH`). */
export async function validateSkillDir(skillDir: string): Promise<ValidationReport> {
  const report = (errors: string[]): ValidationReport => ({ valid: errors.length === 0, errors });
  const st = await fsp.stat(skillDir).catch(() => undefined);
  if (!st) return report([`Path does not exist: ${skillDir}`]);
  if (!st.isDirectory()) return report([`Not a directory: ${skillDir}`]);
  const file = await findSkillMd(skillDir);
  if (file === null) return report(['Missing required file: SKILL.md']);
  try {
    const { metadata } = parseFrontmatter(await readText(file));
    return report(validateMetadata(metadata, path.resolve(skillDir)));
  } catch (e) {
    if (e instanceof SkillsRefError) return report([e.message]);
    return report([`Could not read ${path.basename(file)}: ${e instanceof Error ? e.message : String(e)}`]);
  }
}
