import type { SkillDetail } from '../../../shared/contract';

/**
 * Why a skill of an untrusted workspace asks, in the user's words (what-users-ask §14): the
 * folder it came with, that its `approval: auto` waits for trust, and the user's skill of the
 * same name it takes the place of.
 */
export function untrustedReason(
  skill: SkillDetail,
  approval: 'ask' | 'auto' | 'deny',
  folder: string,
): string {
  const replaces =
    skill.shadows.length > 0
      ? `; it has the same name as ${skill.shadows.length === 1 ? 'another skill' : `${skill.shadows.length} other skills`} of yours (${skill.shadows.join(', ')}) and takes its place here`
      : '';
  const auto = approval === 'auto' ? ': its approval: auto counts only once you trust the folder' : '';
  return `${skill.name} comes from the workspace folder ${folder}, which you have not trusted${auto}${replaces}`;
}
