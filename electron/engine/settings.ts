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
    try {
      const parsed = Settings.safeParse(JSON.parse(text));
      if (parsed.success) return { settings: parsed.data };
      const issue = parsed.error.issues[0];
      return {
        settings: Settings.parse({}),
        problem: `${file} does not match the settings schema (${issue.path.join('.') || 'the file'}: ${issue.message}); defaults used.`,
      };
    } catch {
      // A corrupt file is kept aside, never silently overwritten (nothing is lost).
      fs.copyFileSync(file, `${file}.corrupt-${Date.now()}`);
      return {
        settings: Settings.parse({}),
        problem: `${file} is not valid JSON; a copy was kept, defaults used.`,
      };
    }
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
