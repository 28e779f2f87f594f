import type { RouteCandidate } from '../../../shared/contract';

/** `bin:openhue`, `bin:a|b`, `env:HUE_TOKEN` in words. */
function needs(missing: readonly string[]): string {
  const code = (x: string) => `\`${x}\``;
  const parts = missing.map((m) => {
    const what = m.slice(m.indexOf(':') + 1);
    if (m.startsWith('env:')) return `the environment variable ${code(what)} (not set)`;
    const bins = what.split('|');
    return bins.length > 1
      ? `one of the programs ${bins.map(code).join(', ')} (none is on PATH)`
      : `the program ${code(what)} (not on PATH)`;
  });
  return parts.length > 1
    ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
    : (parts[0] ?? 'more than this machine has');
}

function installLines(c: RouteCandidate): string[] {
  return (c.install ?? []).map((h) => `- ${h.label ? `${h.label}: ` : ''}\`${h.command}\``);
}

/** What the user reads when the turn cannot go on without the skill (no model to fall back on). */
export function unreadyAnswer(c: RouteCandidate): string {
  const install = installLines(c);
  return [
    `**${c.name}** fits this message, but it cannot run on this machine: it needs ${needs(c.missing ?? [])}.`,
    ...(install.length > 0 ? ['', 'To install it:', ...install] : []),
    '',
    'Then send the message again. Without the skill, answering needs a model: Settings → Model.',
  ].join('\n');
}

/** Added to plain chat's system prompt, so the model tells the user before it answers without the skill. */
export function unreadyNote(c: RouteCandidate): string {
  const install = (c.install ?? []).map((h) => h.command);
  return [
    `The installed skill "${c.name}" fits this request but cannot run on this machine: it needs ${needs(c.missing ?? [])}.`,
    `Say so in a sentence${install.length > 0 ? `, with how to install it (${install.map((x) => `\`${x}\``).join(' or ')})` : ''}, then help as far as you can without it.`,
  ].join(' ');
}
