import path from 'node:path';
import type { Eligibility, RepairCategory, RunResult } from '../../../shared/contract';
import { gatherEvidence, type Evidence } from './evidence';
import type { SkillSnapshot } from './snapshot';

/** Routing spec §11.3: progress needed to count as "nearly succeeded". */
export const PROGRESS_THRESHOLD = 0.7;
/** Routing spec §11.3: at most 2 root causes. */
export const MAX_ROOT_CAUSES = 2;

/** Routing spec §11.1: the failures a change inside the skill can fix. */
export const REPAIRABLE: ReadonlySet<RepairCategory> = new Set<RepairCategory>([
  'parameter_mapping',
  'missing_argument',
  'reference_path',
  'incomplete_instructions',
  'script_bug',
  'undeclared_prerequisite',
]);

export interface EligibilityOptions {
  /** Earlier failures of the same skill on this request (routing spec §10: two failures ban a path). */
  priorFailures?: number;
  /** The run's task and input: a missing file the user named is not the skill's fault. */
  task?: string;
  input?: Record<string, unknown>;
}

const NOT_FOUND =
  /No such file or directory|ENOENT|FileNotFoundError|cannot find the (file|path)|does not exist/i;

/** A path the user supplied (task words, input strings) that the failure says is missing. */
export function missingInputPath(text: string, options: EligibilityOptions): string | undefined {
  if (!NOT_FOUND.test(text)) return undefined;
  const values: string[] = [];
  const collect = (v: unknown, depth: number) => {
    if (typeof v === 'string') values.push(v);
    else if (v && typeof v === 'object' && depth < 4) for (const x of Object.values(v)) collect(x, depth + 1);
  };
  collect(options.input, 0);
  values.push(...(options.task ?? '').split(/\s+/));
  return values
    .map((v) => v.trim().replace(/^['"`]|['"`.,;:]$/g, ''))
    .filter((v) => v.length > 2 && v.length < 1024 && /[/\\]|\.\w{1,8}$/.test(v))
    .filter((v) => !/^(references|scripts|assets|templates)\//.test(v))
    .find((v) => text.includes(v));
}

interface Verdict {
  category: RepairCategory;
  /** What happened, in words; the reason adds why it is or is not repairable. */
  what: string;
  /** The failing detail that identifies this failure across line shifts. */
  key: string;
  facts: string[];
}

/**
 * Judges one failed run (routing spec §11): repairable or not, and whether it "nearly
 * succeeded" (§11.3: progress ≥ 0.70, ≤ 2 root causes, change inside the skill, one fix,
 * useful partial output — most of these, and always "inside the skill").
 */
export function assessEligibility(
  run: RunResult,
  skill: SkillSnapshot,
  evidence: Evidence = gatherEvidence(run, skill),
  options: EligibilityOptions = {},
): Eligibility {
  const v = classify(run, skill, evidence, options);
  const repairable = REPAIRABLE.has(v.category);
  const progress = repairable ? estimateProgress(run, skill, evidence) : outsideProgress(run, evidence);
  const rootCauses = Math.max(1, evidence.errorLines.length);
  const criteria = {
    progress: progress >= PROGRESS_THRESHOLD,
    root_causes: rootCauses <= MAX_ROOT_CAUSES,
    within_skill: repairable,
    single_fix: repairable && rootCauses <= 1,
    partial_output: evidence.partialOutput,
  };
  const met = Object.values(criteria).filter(Boolean).length;
  const eligible = repairable && met >= 3;
  let reason: string;
  if (!repairable) reason = v.what;
  else if (eligible)
    reason =
      v.category === 'undeclared_prerequisite' ? `Repairable: ${v.what}` : `It nearly worked: ${v.what}`;
  else {
    const misses = [
      !criteria.progress && `progress ${progress.toFixed(2)} is below ${PROGRESS_THRESHOLD.toFixed(2)}`,
      !criteria.root_causes && `${rootCauses} separate errors`,
      !criteria.partial_output && 'no partial output',
    ].filter(Boolean);
    reason = `${capitalize(v.what)} But it did not nearly succeed (${misses.join(', ')}), so no change to the skill is proposed.`;
  }
  return {
    eligible,
    reason,
    category: v.category,
    error_signature: `${v.category}:${v.key}`,
    progress,
    root_causes: rootCauses,
    criteria,
    evidence: v.facts,
  };
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const norm = (s: string) =>
  s
    .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@+-]+){2,}/g, (p) => path.basename(p))
    .replace(/\b0x[0-9a-f]+\b/gi, 'ADDR')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);

function classify(run: RunResult, skill: SkillSnapshot, e: Evidence, options: EligibilityOptions): Verdict {
  const first = e.errorLines[0] ?? run.error ?? run.status;
  if (run.status === 'success' && !brokenUnderModel(run, skill, e))
    return {
      category: 'not_a_failure',
      what: 'The run succeeded; there is nothing to repair.',
      key: 'success',
      facts: [],
    };
  if (run.status === 'blocked' || run.violations.length > 0) {
    const v = run.violations[0];
    return {
      category: 'sandbox_denial',
      what: `The sandbox stopped it${v ? `: ${v.message}` : ''}. That is a permission question for you, not a bug in the skill, and a repair never widens permissions.`,
      key: v ? `${v.kind}:${norm(v.target)}` : 'blocked',
      facts: run.violations.map((x) => x.message),
    };
  }
  if (run.status === 'denied')
    return {
      category: 'permission_denied',
      // run.error reads "Denied: x did not run (reason)." — said as it is, not wrapped again.
      what: `${run.error?.trim() || 'The run was denied.'} Repairs never change what a skill is allowed to do.`,
      key: 'denied',
      facts: [],
    };
  if (run.status === 'timeout')
    return {
      category: 'timeout',
      what: `It ran out of time after ${(run.duration_ms / 1000).toFixed(run.duration_ms < 10_000 ? 1 : 0)} s. A patch cannot safely make it finish in time, so it falls back instead.`,
      key: 'timeout',
      facts: [],
    };
  if (run.status === 'cancelled')
    return {
      category: 'cancelled',
      what: 'The run was cancelled; there is nothing to repair.',
      key: 'cancelled',
      facts: [],
    };
  if (e.permission)
    return {
      category: 'permission_denied',
      what: `It was not allowed to do something it tried (${e.permission}). That is a permission question for you, and a repair never widens permissions.`,
      key: `permission:${norm(e.permission)}`,
      facts: [e.permission],
    };
  if (e.missingProgram) {
    const declared = [...skill.metadata.requires.bins, ...skill.metadata.requires.anyBins].includes(
      e.missingProgram,
    );
    return {
      category: 'missing_dependency',
      what: `It needs the program \`${e.missingProgram}\`, which is not installed here${run.exit_code === 127 ? ' (exit 127)' : ''}. Install it; editing the skill cannot provide it.${declared ? '' : ` (The skill does not list \`${e.missingProgram}\` among its prerequisites either.)`}`,
      key: `program:${e.missingProgram}`,
      facts: [`missing program ${e.missingProgram}`],
    };
  }
  if (e.missingModule)
    return {
      category: 'missing_dependency',
      what: `It needs the module \`${e.missingModule}\`, which is not installed here. Install it; editing the skill cannot provide it.`,
      key: `module:${e.missingModule}`,
      facts: [`missing module ${e.missingModule}`],
    };
  if (e.network)
    return {
      category: 'external_service',
      what: `It could not reach an external service (${e.network}). That is outside the skill, so nothing is proposed.`,
      key: `network:${norm(e.network.replace(/\d+/g, 'N'))}`,
      facts: [e.network],
    };
  if (e.envVars.length > 0) {
    const undeclared = e.envVars.filter((name) => !skill.metadata.requires.env.includes(name));
    if (undeclared.length === 0)
      return {
        category: 'missing_dependency',
        what: `It needs the environment variable ${e.envVars.join(', ')}, which the skill declares but is not set here. Set it; the skill itself is fine.`,
        key: `env:${e.envVars.sort().join(',')}`,
        facts: e.envVars.map((n) => `${n} not set`),
      };
    return {
      category: 'undeclared_prerequisite',
      what: `it needs the environment variable ${undeclared.join(', ')}, which is not set and which the skill does not declare. Declaring it lets SkillDeck show the skill as unavailable (with what is missing) instead of failing mid-run.`,
      key: `env:${undeclared.sort().join(',')}`,
      facts: undeclared.map((n) => `${n} named as unset, not in requires.env`),
    };
  }
  const choice = e.usage?.invalidChoice;
  if (e.capability || (choice && !choice.choices.some((c) => c.toLowerCase() === choice.value.toLowerCase())))
    return {
      category: 'capability_mismatch',
      what: `The task asks for something this skill cannot do (${e.capability ?? `'${choice?.value}' is not one of ${choice?.choices.join(', ')}`}). That calls for another skill, not a patch.`,
      key: `capability:${norm(e.capability ?? choice?.value ?? '')}`,
      facts: [e.capability ?? `invalid choice ${choice?.value}`],
    };
  const failures = run.timeline.filter(
    (t) => t.state === 'retryable_failure' || t.state === 'fatal_failure',
  ).length;
  if (failures + (options.priorFailures ?? 0) >= 2 && !e.partialOutput)
    return {
      category: 'persistent_failure',
      what: `It failed ${failures + (options.priorFailures ?? 0)} times without leaving any intermediate result (${norm(first)}). Routing spec §11.2: that is not a near miss.`,
      key: `persistent:${norm(first)}`,
      facts: [`${failures} failed attempts in the run timeline`],
    };
  if (e.missingPaths.length > 0)
    return {
      category: 'reference_path',
      what: `the skill refers to ${e.missingPaths.join(', ')}, which does not exist in the skill. Fixing the path inside the skill should do it.`,
      key: e.missingPaths.sort().join(','),
      facts: e.missingPaths.map((p) => `${p} is referenced but missing`),
    };
  if (e.usage && e.usage.missing.length > 0) {
    const script = scriptOf(run, skill);
    return {
      category: 'missing_argument',
      what: `${script ?? 'the script'} was called without ${e.usage.missing.join(', ')}, which its usage text requires.`,
      key: `${script ?? ''}:${e.usage.missing.sort().join(',')}`,
      facts: [
        `usage error: missing ${e.usage.missing.join(', ')}`,
        ...(e.usage.usageLine ? [e.usage.usageLine] : []),
      ],
    };
  }
  if (e.usage && (e.usage.unrecognized.length > 0 || choice))
    return {
      category: 'parameter_mapping',
      what: `the script was called with arguments it does not accept (${e.usage.unrecognized.join(' ') || choice?.value}); the skill's instructions or mapping need a small fix.`,
      key: `usage:${norm(e.usage.unrecognized.join(' ') || (choice?.value ?? ''))}`,
      facts: [e.usage.usageLine ?? 'usage error'],
    };
  const badInput = missingInputPath(e.text, options);
  if (badInput)
    return {
      category: 'bad_input',
      what: `The input names ${badInput}, which could not be found (or is outside what the skill may read). Check the path or the skill's read permissions; that is not a bug in the skill.`,
      key: `input:${badInput}`,
      facts: [`${badInput} comes from the task or input and was not found`],
    };
  const frame = e.trace?.skillFrame;
  if (e.trace && frame?.skillPath) {
    const t = e.trace;
    return {
      category: 'script_bug',
      what: `${frame.skillPath} stopped at line ${frame.line} with ${t.type}${t.message ? ` ${norm(t.message)}` : ''}${e.partialOutput ? ' after producing partial output' : ''}. A small fix in the skill's own script should do it.`,
      key: `${t.type}:${norm(t.message)}@${frame.skillPath}`,
      facts: [`traceback ends in ${frame.skillPath} line ${frame.line}`, `${t.type}: ${t.message}`],
    };
  }
  if (
    run.command.length === 0 &&
    /(?:instructions?|SKILL\.md)[^\n]{0,40}(?:do(?:es)? not|don't|never) (?:say|specify|explain|mention)|not specified|unclear (?:which|how|what)/i.test(
      `${run.error ?? ''}\n${run.output}`,
    )
  )
    return {
      category: 'incomplete_instructions',
      what: `the model could not follow the skill's instructions (${norm(run.error ?? 'they leave a step unsaid')}); completing SKILL.md should do it.`,
      key: `instructions:${norm(run.error ?? '')}`,
      facts: ['the answer says the instructions leave a step out'],
    };
  return {
    category: 'unknown',
    what: `It failed (${norm(first) || `exit ${run.exit_code ?? '?'}`}) in a way that does not point at a cause inside the skill (no traceback in its scripts, no usage error, no missing file), so nothing is proposed.`,
    key: norm(first.replace(/\d+/g, 'N')),
    facts: [],
  };
}

/**
 * A run the model finished although a file its SKILL.md names was missing (the model's
 * tools said so): the answer came, but the skill is broken and a path fix repairs it.
 */
export function brokenReference(run: RunResult, skill: SkillSnapshot, e: Evidence): boolean {
  const doc = skill.texts.get(skill.skillFile) ?? '';
  return run.command.length === 0 && e.missingPaths.some((p) => doc.includes(p));
}

/**
 * A run the model finished although a script of the skill it ran stopped inside the skill's own
 * code (the tool result held the traceback): the answer came around the bug, and the skill is
 * as broken as one whose script fails when run directly.
 */
export function brokenScript(run: RunResult, e: Evidence): boolean {
  return run.command.length === 0 && !!e.trace?.skillFrame?.skillPath?.startsWith('scripts/');
}

/** A successful model-driven run that still shows a fault in the skill (brokenReference, brokenScript). */
export const brokenUnderModel = (run: RunResult, skill: SkillSnapshot, e: Evidence): boolean =>
  brokenReference(run, skill, e) || brokenScript(run, e);

/** The skill script a command ran (`scripts/sum.py`), when it ran one. */
export function scriptOf(run: RunResult, skill: SkillSnapshot): string | undefined {
  for (const arg of run.command) {
    const norm = arg.replace(/\\/g, '/');
    const hit = skill.listing.find(
      (rel) => rel.startsWith('scripts/') && (norm === rel || norm.endsWith(`/${rel}`)),
    );
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Routing spec §11.3 progress, from evidence: the run got into the skill's own code (0.4),
 * the cause is one identified thing inside the skill (0.3), it left partial output (0.15),
 * and how far the traceback got through the failing script (up to 0.15).
 */
function estimateProgress(run: RunResult, skill: SkillSnapshot, e: Evidence): number {
  let p = 0.4 + 0.3;
  if (e.partialOutput) p += 0.15;
  const frame = e.trace?.skillFrame;
  const text = frame?.skillPath ? skill.texts.get(frame.skillPath) : undefined;
  if (frame && text) {
    const lines = text.split('\n').length;
    p += 0.15 * Math.min(1, frame.line / Math.max(1, lines));
  }
  return Math.round(Math.min(1, p) * 100) / 100;
}

/** Progress of a failure outside the skill: only what it produced counts. */
function outsideProgress(run: RunResult, e: Evidence): number {
  if (run.status === 'success') return 1;
  return e.partialOutput ? 0.3 : 0.1;
}
