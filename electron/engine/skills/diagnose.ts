import type {
  Diagnosis,
  DiagnosisReason,
  InstructionFinding,
  SkillMetadata,
  SkillSummary,
} from '../../../shared/contract';
import { flaggedClause } from '../routing/held';
import { installHints } from './installHints';
import { onPath, unmetRequirements } from './readiness';

export interface DiagnoseInput {
  summary: SkillSummary;
  metadata: SkillMetadata;
  disabled: boolean;
  /** Turned off in the open workspace only (what-users-ask §14). */
  disabledHere?: boolean;
  neverAutoSelect: boolean;
  /** SKILL.md's flagged line while it holds the skill back (the user has not allowed it). */
  flagged?: InstructionFinding | null;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * "Why isn't it used?" (issue 3 item 7): every reason that keeps a skill out of routing,
 * in one list. Requirements are checked fresh (PATH and env change while the app runs).
 */
export function diagnoseSkill(input: DiagnoseInput): Diagnosis {
  const { summary: s, metadata: m } = input;
  const reasons: DiagnosisReason[] = [];
  for (const p of s.problems.filter((p) => p.severity === 'error')) {
    reasons.push({
      code: 'parse-error',
      blocks: 'all',
      message: p.message,
      ...(p.field ? { detail: [p.field] } : {}),
    });
  }
  const unmet = unmetRequirements(m, input.env, input.platform);
  if (unmet.bins.length)
    reasons.push({
      code: 'missing-bin',
      blocks: 'all',
      message: `Needs programs that are not on PATH: ${unmet.bins.join(', ')}.`,
      fix: 'Install them, or add their folder to PATH, then reload.',
      detail: unmet.bins,
      ...withInstall(m.install, unmet.bins, input.env),
    });
  if (unmet.anyBins.length)
    reasons.push({
      code: 'missing-any-bin',
      blocks: 'all',
      message: `Needs one of these programs on PATH, and none is: ${unmet.anyBins.join(', ')}.`,
      fix: 'Install any one of them.',
      detail: unmet.anyBins,
      ...withInstall(m.install, unmet.anyBins, input.env),
    });
  if (unmet.env.length)
    reasons.push({
      code: 'missing-env',
      blocks: 'all',
      message: `Needs environment variables that are not set: ${unmet.env.join(', ')}.`,
      fix: 'Set them in the environment SkillDeck starts from, then restart it.',
      detail: unmet.env,
    });
  if (unmet.os.length)
    reasons.push({
      code: 'os-excluded',
      blocks: 'all',
      message: `Only runs on ${unmet.os.join(', ')}, not on ${input.platform ?? process.platform}.`,
      detail: unmet.os,
    });
  if (s.shadowedBy)
    reasons.push({
      code: 'shadowed',
      blocks: 'all',
      message: `Shadowed by ${s.shadowedBy}, a skill of the same name with higher precedence.`,
      fix: 'Rename one of them, or remove the other, to use this one.',
      detail: [s.shadowedBy],
    });
  if (input.disabled)
    reasons.push({ code: 'disabled', blocks: 'all', message: 'Disabled in settings.', fix: 'Enable it.' });
  else if (input.disabledHere)
    reasons.push({
      code: 'disabled-here',
      blocks: 'all',
      message: `Turned off in this workspace: the router skips it here, $${s.name} included.`,
      fix: 'Turn it on in this workspace.',
    });
  if (input.neverAutoSelect)
    reasons.push({
      code: 'never-auto-select',
      blocks: 'auto',
      message: `Set to never auto-select: only $${s.name} or /${s.name} runs it.`,
      fix: 'Allow automatic selection.',
    });
  if (input.flagged)
    reasons.push({
      code: 'instructions-flagged',
      blocks: 'auto',
      message: `Held back from automatic selection: ${flaggedClause(input.flagged)}.`,
      fix: 'Read that line under Instructions. If you trust this skill, allow auto-select anyway.',
      detail: [input.flagged.excerpt],
    });
  if (!m.invocation.implicit)
    reasons.push({
      code: 'implicit-off',
      blocks: 'auto',
      message: `Its author turned off automatic selection (disable-model-invocation or allow_implicit_invocation: false); only $${s.name} runs it.`,
    });
  const blocksAll = reasons.some((r) => r.blocks === 'all');
  return {
    id: s.id,
    name: s.name,
    source: s.source,
    autoSelectable: reasons.length === 0,
    invocable: !blocksAll && m.invocation.user,
    reasons,
  };
}

/** The skill's own ways to install the programs it misses, when it names any. */
function withInstall(install: readonly Record<string, unknown>[], bins: string[], env?: NodeJS.ProcessEnv) {
  const hints = installHints(install, bins, process.platform, 2, (b) => onPath(b, env));
  return hints.length > 0 ? { install: hints } : {};
}
