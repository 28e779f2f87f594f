import YAML, { isMap, isSeq } from 'yaml';
import { tooDeepAt } from '../skills/yamlDepth';
import { eolOf, type DraftProposal, type FixContext } from './fixers';

/**
 * Where the declaration goes, in the order the skill already uses them: the routing spec's
 * `prerequisites` or OpenClaw's top-level `requires` when the frontmatter has them, else
 * `metadata.openclaw.requires` — the one place the loader reads that keeps SKILL.md valid
 * for the strict reference validator (`metadata` is an allowed field; the others are not).
 */
const TARGETS: string[][] = [
  ['prerequisites'],
  ['requires'],
  ['metadata', 'openclaw', 'requires'],
  ['metadata', 'clawdbot', 'requires'],
];

/** The frontmatter block's line span in SKILL.md (after the opening `---`, before the closing one). */
function frontmatterSpan(lines: string[]): { from: number; to: number } | null {
  let i = 0;
  while (i < lines.length && lines[i].replace(/^\uFEFF/, '').trim() === '') i++;
  if (!/^\uFEFF?---\s*$/.test(lines[i] ?? '')) return null;
  for (let j = i + 1; j < lines.length; j++) if (/^---\s*$/.test(lines[j])) return { from: i + 1, to: j };
  return null;
}

/**
 * Adds `names` to a `requires.env` list in SKILL.md's frontmatter, editing the YAML
 * document in place so the rest of the frontmatter keeps its formatting. Null when the
 * frontmatter cannot be read as YAML.
 */
export function declareEnv(doc: string, names: string[]): string | null {
  const eol = eolOf(doc);
  const lines = doc.split(/\r?\n/);
  const span = frontmatterSpan(lines);
  if (!span) return null;
  const source = lines.slice(span.from, span.to).join('\n');
  // Too deep for the `yaml` package, which recursed into a process abort (skills/yamlDepth.ts).
  if (tooDeepAt(source) > 0) return null;
  const yaml = YAML.parseDocument(source, { schema: 'failsafe' });
  if (yaml.errors.length > 0 || !isMap(yaml.contents)) return null;
  let base = TARGETS[2];
  for (const t of TARGETS) {
    if (isMap(yaml.getIn(t))) {
      base = t;
      break;
    }
  }
  const at = [...base, 'env'];
  const existing = yaml.getIn(at);
  const list = isSeq(existing) ? existing.items.map((n) => String(YAML.isScalar(n) ? n.value : n)) : [];
  const add = names.filter((n) => !list.includes(n));
  if (add.length === 0) return null;
  if (isSeq(existing)) for (const n of add) existing.add(yaml.createNode(n));
  else yaml.setIn(at, yaml.createNode([...list, ...add]));
  const text = yaml.toString({ lineWidth: 0 }).replace(/\n$/, '');
  lines.splice(span.from, span.to - span.from, ...text.split('\n'));
  return lines.join(eol);
}

/**
 * Fixer (c): the error names an environment variable the skill needs but does not declare.
 * Declaring it does not make the run pass here — the variable is still unset — but it turns
 * a mid-run crash into "unavailable: needs X" before anything runs (DESIGN §3), which is what
 * the replay must show.
 */
export function fixPrerequisite(ctx: FixContext): DraftProposal | null {
  const names = ctx.evidence.envVars.filter((n) => !ctx.skill.metadata.requires.env.includes(n));
  const doc = ctx.skill.texts.get(ctx.skill.skillFile);
  if (names.length === 0 || doc === undefined) return null;
  const after = declareEnv(doc, names);
  if (after === null) return null;
  const list = names.join(', ');
  return {
    source: 'fixer',
    fixer: 'prerequisite',
    error_signature: ctx.eligibility.error_signature,
    root_cause: `The skill needs the environment variable ${list} but does not declare it, so SkillDeck offered it without checking and it failed mid-run.`,
    expected_effect: `The skill declares ${list} as a prerequisite: while it is unset the skill shows as unavailable with what is missing, instead of failing. Set ${list} to use it.`,
    changes: [{ path: ctx.skill.skillFile, before: doc, after }],
    expect: { kind: 'unavailable', names },
  };
}
