import type {
  InstallCandidate,
  InstallPreview,
  InstallSource,
  PreviewSource,
} from '../../../../shared/contract';

export type SourceTab = 'folder' | 'archive' | 'git';

export interface SourceForm {
  folder: string;
  archive: string;
  gitUrl: string;
  gitRef: string;
  gitSubpath: string;
}

export const EMPTY_FORM: SourceForm = { folder: '', archive: '', gitUrl: '', gitRef: '', gitSubpath: '' };

/** Same rule as the contract's `InstallName` (agentskills.io: lowercase, digits, hyphens). */
const NAME_RULE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const GIT_URL = /^(?:https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[\w.-]+@[\w.-]+:)\S+$/i;
const ARCHIVE = /\.(zip|skill)$/i;

/** The source the form describes, or what is missing from it. */
export function sourceFromForm(
  tab: SourceTab,
  form: SourceForm,
): { source: InstallSource } | { error: string } {
  if (tab === 'folder') {
    const path = form.folder.trim();
    return path ? { source: { kind: 'folder', path } } : { error: 'Enter the path of a skill folder.' };
  }
  if (tab === 'archive') {
    const path = form.archive.trim();
    if (!path) return { error: 'Enter the path of a .zip or .skill archive.' };
    if (!ARCHIVE.test(path)) return { error: 'An archive ends in .zip or .skill.' };
    return { source: { kind: 'archive', path } };
  }
  const url = form.gitUrl.trim();
  if (!url) return { error: 'Enter a git URL (https, ssh or file://).' };
  if (!GIT_URL.test(url))
    return { error: 'That does not look like a git URL: use https://, ssh://, git@host:path or file://.' };
  const ref = form.gitRef.trim();
  const subpath = form.gitSubpath.trim().replace(/^\/+|\/+$/g, '');
  return { source: { kind: 'git', url, ...(ref && { ref }), ...(subpath && { subpath }) } };
}

/** Which tab a dropped item belongs on, by its name. */
export const tabForDropped = (name: string): SourceTab => (ARCHIVE.test(name) ? 'archive' : 'folder');

/** True for a name the engine takes as an archive (`.zip` / `.skill`). */
export const isArchiveName = (name: string): boolean => ARCHIVE.test(name);

/**
 * Base64 of `bytes`, built in chunks: spreading a whole multi-megabyte array into
 * `String.fromCharCode` would overflow the call stack.
 */
export function toBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000;
  let binary = '';
  for (let at = 0; at < bytes.length; at += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(at, at + CHUNK));
  return btoa(binary);
}

/** One line naming a source, for headers and results. */
export function describeSource(source: InstallSource | PreviewSource): string {
  if (source.kind === 'upload') return `${source.fileName} (uploaded)`;
  if (source.kind !== 'git') return source.path;
  const extras = [source.ref && `@${source.ref}`, source.subpath && `/${source.subpath}`].filter(Boolean);
  return `${source.url}${extras.length ? ` ${extras.join(' ')}` : ''}`;
}

export type ConflictChoice = 'replace' | 'rename';

export interface CandidateChoice {
  selected: boolean;
  /** Unset until the user decides what to do with a same-named installed skill. */
  onConflict?: ConflictChoice;
  newName: string;
  /** Ticked after reading the dangerous lines of its instructions (engine's instruction scan). */
  acceptDanger?: boolean;
}

/** `name-2`, `name-3`, ... : the first that is not taken. */
export function suggestName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/-\d+$/, '');
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Everything is picked at first; a conflict waits for the user's choice. */
export function defaultChoices(
  preview: InstallPreview,
  installedNames: ReadonlySet<string>,
): Record<string, CandidateChoice> {
  const taken = new Set([...installedNames, ...preview.candidates.map((c) => c.name)]);
  return Object.fromEntries(
    preview.candidates.map((c) => [c.name, { selected: true, newName: suggestName(c.name, taken) }]),
  );
}

export interface Selection {
  name: string;
  onConflict: 'replace' | 'rename' | 'cancel';
  newName?: string;
}

/** What `install.commit` gets, and what still keeps the Install button disabled. */
export function buildSelection(
  candidates: readonly InstallCandidate[],
  choices: Readonly<Record<string, CandidateChoice>>,
  installedNames: ReadonlySet<string>,
): { select: Selection[]; issues: string[] } {
  const select: Selection[] = [];
  const issues: string[] = [];
  const targets = new Map<string, string>();
  for (const candidate of candidates) {
    const choice = choices[candidate.name];
    if (!choice?.selected) continue;
    // Like a conflict, a dangerous instruction waits for the user's explicit word.
    if (candidate.instructions.some((f) => f.severity === 'danger') && !choice.acceptDanger) {
      issues.push(
        `Read what “${candidate.name}” asks the agent to do, and tick “still want to install” to go on.`,
      );
      continue;
    }
    if (!candidate.conflict) {
      select.push({ name: candidate.name, onConflict: 'cancel' });
      targets.set(candidate.name, candidate.name);
      continue;
    }
    if (!choice.onConflict) {
      issues.push(`Choose what to do with the installed “${candidate.name}”.`);
      continue;
    }
    if (choice.onConflict === 'replace') {
      select.push({ name: candidate.name, onConflict: 'replace' });
      targets.set(candidate.name, candidate.name);
      continue;
    }
    const newName = choice.newName.trim();
    if (!NAME_RULE.test(newName)) {
      issues.push(`“${newName || '(empty)'}” is not a valid name: lowercase letters, digits and hyphens.`);
    } else if (installedNames.has(newName)) {
      issues.push(`A skill named “${newName}” is already installed.`);
    } else {
      select.push({ name: candidate.name, onConflict: 'rename', newName });
      targets.set(newName, candidate.name);
    }
  }
  const seen = new Map<string, number>();
  for (const s of select) {
    const target = s.newName ?? s.name;
    seen.set(target, (seen.get(target) ?? 0) + 1);
  }
  for (const [target, count] of seen)
    if (count > 1) issues.push(`Two skills would be installed as “${target}”.`);
  if (select.length === 0 && issues.length === 0) issues.push('Pick at least one skill to install.');
  return { select, issues };
}

/** A share in [0, 1], or null while the total is unknown (a clone). */
export function progressShare(done: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.min(1, Math.max(0, done / total));
}

export type CapabilityKind = 'run' | 'write' | 'read' | 'network' | 'env' | 'danger' | 'none' | 'other';

/** Sorts the engine's plain-language capability lines (electron/engine/install/capabilities.ts) for icons and emphasis. */
export function capabilityKind(line: string): CapabilityKind {
  const text = line.toLowerCase();
  if (text.startsWith('instructions only')) return 'none';
  if (/^reads env\b|environment/.test(text)) return 'env';
  if (/dangerous|without a sandbox/.test(text)) return 'danger';
  if (/^(runs|executes|spawns|uses programs)\b/.test(text) && !text.startsWith('runs only on')) return 'run';
  if (/^(writes|modifies|deletes|creates)\b/.test(text)) return 'write';
  if (/^(reaches|connects)\b|network/.test(text)) return 'network';
  if (/^reads\b/.test(text)) return 'read';
  return 'other';
}

/** What a careful reviewer looks at first. */
export const isSensitive = (kind: CapabilityKind): boolean =>
  kind === 'run' || kind === 'write' || kind === 'network' || kind === 'danger';
