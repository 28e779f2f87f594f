import { create } from 'zustand';
import type { DependencyInstall } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';

/** Where one install command of one skill stands: asked to confirm, running, or done. */
export type DependencyStep =
  | { status: 'confirm' }
  /** `output`: what the installer has printed so far (its end), as it prints it. */
  | { status: 'running'; output: string }
  | { status: 'done'; result: DependencyInstall }
  | { status: 'error'; error: string };

interface DependencyState {
  /** Keyed by `dependencyKey(id, command)`; a command never asked about has no entry. */
  steps: Record<string, DependencyStep>;
  /** First click: show what will run and where, and wait for a second. */
  ask(id: string, command: string): void;
  cancel(id: string, command: string): void;
  /** Runs the skill's install command (`skills.installDependency`); the engine checks it is one. */
  install(id: string, command: string): Promise<void>;
}

/** How much of a running install's output the window keeps: its end, where it is now. */
const LIVE_TAIL = 8_000;

export const dependencyKey = (id: string, command: string): string => `${id}\n${command}`;

/** Users' ask #13: one-click installs of what a skill needs, from its own install entries. */
export const useDependencyStore = create<DependencyState>()((set, get) => {
  const put = (id: string, command: string, step: DependencyStep | null) =>
    set((s) => {
      const steps = { ...s.steps };
      if (step) steps[dependencyKey(id, command)] = step;
      else delete steps[dependencyKey(id, command)];
      return { steps };
    });
  return {
    steps: {},
    ask: (id, command) => put(id, command, { status: 'confirm' }),
    cancel: (id, command) => put(id, command, null),
    async install(id, command) {
      if (get().steps[dependencyKey(id, command)]?.status === 'running') return;
      put(id, command, { status: 'running', output: '' });
      // A brew or cargo install takes minutes: its output shows as it comes.
      const off = client().on('skills.dependencyOutput', (event) => {
        const step = get().steps[dependencyKey(id, command)];
        if (event.id !== id || event.command !== command || step?.status !== 'running') return;
        put(id, command, { status: 'running', output: (step.output + event.chunk).slice(-LIVE_TAIL) });
      });
      try {
        const result = await client().invoke('skills.installDependency', { id, command });
        put(id, command, { status: 'done', result });
      } catch (error) {
        put(id, command, { status: 'error', error: errorMessage(error) });
      } finally {
        off();
      }
    },
  };
});
