import type { SkillSummary } from '../../../shared/contract';

/**
 * Why the listed skill a user named (`$apple-notes`, "use the notes-digest skill") is not one the
 * router can pick, in words for the plan's reason; null when no listed skill has that name. Before,
 * the reason said "No routable skill named …" of a skill the user could see in the list.
 */
export function whyNotRoutable(
  skills: readonly SkillSummary[],
  name: string,
  disabled: { settings: ReadonlySet<string>; workspace: ReadonlySet<string> },
): string | null {
  const wanted = name.toLowerCase();
  const named = skills.filter((s) => s.name.toLowerCase() === wanted);
  if (named.length === 0) return null;
  const skill = named.find((s) => s.routable) ?? named[0];
  if (disabled.workspace.has(skill.name))
    return 'is turned off in this workspace; turn it on in its Availability tab to use it.';
  if (disabled.settings.has(skill.name))
    return 'is turned off (settings.json skills.disabled); its Availability tab turns it on.';
  if (skill.routable) return null;
  const error = skill.problems.find((p) => p.severity === 'error');
  if (error) return `is listed but never routed: its SKILL.md has an error (${error.message})`;
  const os = skill.problems.find((p) => p.code === 'os-unsupported');
  if (os) return `is listed but not routable here: ${os.message}`;
  if (skill.shadowedBy) return `is hidden by the same-named skill at ${skill.shadowedBy}.`;
  return null;
}
