import fs from 'node:fs';
import path from 'node:path';
import { Settings, type ModelSettingsPatch, type SettingsPatch } from '../../shared/contract';
import { writeFileAtomicSync } from './atomic';

/** `$SKILLDECK_HOME/settings.json`: explicit user preferences, written atomically. */
export class SettingsStore {
  private current: Settings;
  /** Why the file on disk was not used, when it was unreadable; shown to the user once. */
  readonly loadProblem: string | undefined;

  constructor(private readonly file: string) {
    const { settings, problem } = SettingsStore.read(file);
    this.current = settings;
    this.loadProblem = problem;
  }

  static at(home: string): SettingsStore {
    return new SettingsStore(path.join(home, 'settings.json'));
  }

  private static read(file: string): { settings: Settings; problem?: string } {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return { settings: Settings.parse({}) };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // A corrupt file is kept aside, never silently overwritten (nothing is lost).
      const kept = `${file}.corrupt-${Date.now()}`;
      fs.copyFileSync(file, kept);
      return {
        settings: Settings.parse({}),
        problem: `${file} is not valid JSON; defaults used for every setting. The file as it was is in ${kept}.`,
      };
    }
    const { settings, dropped } = salvage(raw);
    if (dropped.length === 0) return { settings };
    // The file as the user wrote it is kept aside: the next change of a setting rewrites it.
    const kept = `${file}.invalid-${Date.now()}`;
    fs.copyFileSync(file, kept);
    const more = dropped.length > 1 ? ` and ${dropped.length - 1} more` : '';
    return {
      settings,
      problem: `${file} does not match the settings schema (${dropped[0]}${more}); defaults used for ${dropped.length === 1 ? 'that field' : 'those fields'}, the rest kept. The file as it was is in ${kept}.`,
    };
  }

  get(): Settings {
    return this.current;
  }

  /** Merge `patch` (objects merge, arrays and scalars replace), validate, persist. */
  update(patch: SettingsPatch): Settings {
    return this.write({
      ...this.current,
      skills: { ...this.current.skills, ...patch.skills },
      routing: {
        ...this.current.routing,
        ...patch.routing,
        weights: { ...this.current.routing.weights, ...patch.routing?.weights },
      },
    });
  }

  /** Merge a model-settings patch (`null` clears a field), validate, persist. */
  updateModel(patch: ModelSettingsPatch): Settings {
    return this.write({ ...this.current, model: { ...this.current.model, ...patch } });
  }

  private write(candidate: Settings): Settings {
    const next = Settings.parse(candidate);
    writeFileAtomicSync(this.file, `${JSON.stringify(next, null, 2)}\n`);
    this.current = next;
    return next;
  }
}

/** At most this many fields set aside before the whole file is (a file of garbage). */
const MAX_DROPPED = 20;

/**
 * The settings in `raw`, each value that does not fit the schema left out (its default used):
 * one mistyped field no longer costs every other preference, the disabled skills among them.
 */
function salvage(raw: unknown): { settings: Settings; dropped: string[] } {
  let candidate = raw;
  const dropped: string[] = [];
  for (;;) {
    const parsed = Settings.safeParse(candidate);
    if (parsed.success) return { settings: parsed.data, dropped };
    const issue = parsed.error.issues[0];
    const where = issue.path.map(String).join('.');
    dropped.push(`${where || 'the file'}: ${issue.message}`);
    const next = where && dropped.length <= MAX_DROPPED ? without(candidate, issue.path) : undefined;
    if (next === undefined) return { settings: Settings.parse({}), dropped };
    candidate = next;
  }
}

/** A copy of `value` without what `at` names (an array element is taken out of its list), or undefined. */
function without(value: unknown, at: PropertyKey[]): unknown {
  const copy: unknown = structuredClone(value);
  let parent: unknown = copy;
  for (const key of at.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return undefined;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  const last = at[at.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (parent !== null && typeof parent === 'object' && Object.hasOwn(parent, last))
    delete (parent as Record<PropertyKey, unknown>)[last];
  else return undefined;
  return copy;
}
