import type { DependencyInstall, InstallHint } from '../../shared/contract';
import type { Engine } from '../engine';
import { refuse, withSkill, type DiscoveryFlags } from './context';
import { forTerminal, oneLine } from './terminal';

/** What a skill misses and its own ways to install it, as the Availability tab shows them. */
function missingOf(engine: Engine, id: string): { missing: string[]; hints: InstallHint[] } {
  const reasons = engine.install
    .diagnose(id)
    .reasons.filter((r) => r.code === 'missing-bin' || r.code === 'missing-any-bin');
  return {
    missing: reasons.flatMap((r) => r.detail ?? []),
    hints: reasons.flatMap((r) => r.install ?? []),
  };
}

function hintLines(hints: InstallHint[]): string[] {
  return hints.map(
    (h, i) =>
      `  ${i + 1}. ${oneLine(h.command)}${h.label ? `   (${oneLine(h.label)})` : ''}${h.runnable ? '' : '   — copy into a terminal'}`,
  );
}

/**
 * `skills deps NAME [--install N]`: the programs a skill needs and misses on this PATH, with its
 * own install commands; `--install N` runs the Nth (users' ask #13), outside the sandbox, then
 * checks again. Exit 0 when nothing is missing (any more), 1 when something still is.
 */
export async function skillsDeps(
  skill: string | undefined,
  flags: DiscoveryFlags & { json: boolean; install?: string },
): Promise<number> {
  if (!skill) {
    process.stderr.write('usage: skilldeck skills deps NAME [--install N] [--json]\n');
    return 2;
  }
  return withSkill(flags, skill, async (engine, match) => {
    const before = missingOf(engine, match.id);
    let installed: DependencyInstall | undefined;
    if (flags.install !== undefined) {
      const n = Number(flags.install);
      const hint = Number.isInteger(n) ? before.hints[n - 1] : undefined;
      if (before.missing.length === 0)
        return refuse(`${match.name} misses no program: nothing to install.`, flags.json);
      if (!hint)
        return refuse(
          `--install takes the number of one of ${match.name}'s install commands (1–${before.hints.length}); run without it to list them.`,
          flags.json,
        );
      if (!flags.json) process.stderr.write(`Running: ${oneLine(hint.command)}\n`);
      // What the installer prints shows as it prints it: a brew or cargo install takes minutes.
      const stopStreaming = flags.json
        ? () => undefined
        : engine.events.subscribe((name, payload) => {
            if (name === 'skills.dependencyOutput')
              process.stdout.write(forTerminal((payload as { chunk: string }).chunk));
          });
      try {
        installed = await engine.install.installDependency(match.id, hint.command);
      } catch (error) {
        return refuse((error as Error).message, flags.json);
      } finally {
        stopStreaming();
      }
    }
    const after = installed ? missingOf(engine, match.id) : before;
    if (flags.json) {
      const out = { skill: match.name, id: match.id, ...after, ...(installed ? { installed } : {}) };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      if (installed) {
        const how = installed.ok
          ? 'finished'
          : `failed (${installed.error ?? `exit ${installed.exit_code}`})`;
        process.stdout.write(
          `\n${oneLine(installed.command)} ${how} in ${(installed.duration_ms / 1000).toFixed(1)} s.\n`,
        );
      }
      if (after.missing.length === 0) process.stdout.write(`${match.name} has every program it needs.\n`);
      else {
        process.stdout.write(
          `${match.name} needs, and this PATH lacks: ${after.missing.map(oneLine).join(', ')}\n`,
        );
        if (after.hints.length > 0)
          process.stdout.write(
            `Its install commands (--install N runs one):\n${hintLines(after.hints).join('\n')}\n`,
          );
        else process.stdout.write('It says nothing about how to install them.\n');
      }
    }
    return after.missing.length === 0 ? 0 : 1;
  });
}
