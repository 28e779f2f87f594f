import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { InstallCandidate, InstallPreview, InstallSource } from '../../shared/contract';
import { InstallName } from '../../shared/contract';
import { EngineError } from '../engine';
import { openEngine, type DiscoveryFlags } from './context';
import { findingLines } from './findings';
import { problemLines } from './problemLines';
import { forTerminal, oneLine } from './terminal';

export interface InstallFlags extends DiscoveryFlags {
  yes: boolean;
  json: boolean;
  replace: boolean;
  name?: string;
  ref?: string;
  path?: string;
}

const GIT_URL = /^(?:https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[\w.-]+@[\w.-]+:)/;

/** A folder, a `.zip` / `.skill` archive, or a git URL (`URL#ref` works too). */
export function parseSource(arg: string, flags: { ref?: string; path?: string }): InstallSource {
  if (GIT_URL.test(arg) || arg.endsWith('.git')) {
    const [url, hashRef] = arg.split('#');
    const ref = flags.ref ?? (hashRef || undefined);
    return { kind: 'git', url, ...(ref ? { ref } : {}), ...(flags.path ? { subpath: flags.path } : {}) };
  }
  const full = path.resolve(arg);
  if (fs.existsSync(full) && fs.statSync(full).isDirectory()) return { kind: 'folder', path: full };
  return { kind: 'archive', path: full };
}

const kib = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

function describe(c: InstallCandidate): string {
  const lines = [
    `${c.name}${c.version ? ` ${c.version}` : ''} — ${c.description || '(no description)'}`,
    InstallName.safeParse(c.name).success
      ? `  installs to ${c.targetPath}${c.sourcePath ? ` (from ${c.sourcePath}/)` : ''}`
      : `  "${c.name}" is no folder name: install it with --name ${path.basename(c.targetPath)} (to ${c.targetPath})${c.sourcePath ? `, from ${c.sourcePath}/` : ''}`,
    `  ${c.files.length} files, ${kib(c.totalBytes)}; sandbox on this machine: ${c.sandboxTier}`,
    ...c.files.map(
      (f) => `    ${f.path}  ${kib(f.size)}${f.scriptLanguage ? `  [${f.scriptLanguage} script]` : ''}`,
    ),
  ];
  // What the instructions ask the agent to do is read first, as in the install dialog; what the
  // skill declares ("instructions only: runs nothing …") follows and does not answer for it.
  lines.push(...findingLines(c.instructions));
  lines.push(`  It will be able to (as declared): ${c.capabilities.join('; ')}`);
  lines.push(...problemLines(c.problems, c.name));
  for (const u of c.unmet) lines.push(`  not ready here: ${u}`);
  if (c.conflict)
    lines.push(
      `  CONFLICT: ${c.conflict.existingId} exists${c.conflict.existingVersion ? ` (${c.conflict.existingVersion})` : ''}`,
    );
  return lines.join('\n');
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** `skills install SOURCE`: preview, confirm (or `--yes`), install into the managed folder. */
export async function skillsInstall(source: string | undefined, flags: InstallFlags): Promise<number> {
  if (!source) {
    process.stderr.write(
      'usage: skilldeck skills install SOURCE [--yes] [--json] [--replace] [--name NEW] [--ref REF] [--path SUB]\n',
    );
    return 2;
  }
  if (flags.name !== undefined && !InstallName.safeParse(flags.name).success) {
    process.stderr.write(`--name must be lowercase letters, digits and hyphens, got ${flags.name}\n`);
    return 2;
  }
  const engine = await openEngine(flags);
  let preview: InstallPreview | undefined;
  try {
    preview = await engine.install.preview(parseSource(source, flags));
    if (flags.name && preview.candidates.length > 1) {
      process.stderr.write(
        `--name needs a source with one skill; this one has ${preview.candidates.length}.\n`,
      );
      return 2;
    }
    // What a source says of itself (names, descriptions) is shown, never acted on by the terminal.
    if (!flags.json)
      process.stdout.write(forTerminal(`${preview.candidates.map(describe).join('\n\n')}\n\n`));
    // Under --json the preview is the candidates beside the result, installed or not: a script
    // reads what the instructions ask for (and what the skill declares) where a person reads it.
    const { candidates } = preview;
    const nothingInstalled = (why: string) => {
      process.stderr.write(why);
      if (flags.json) process.stdout.write(`${JSON.stringify({ installed: [], skipped: [], candidates })}\n`);
      return 1;
    };
    if (!flags.yes) {
      if (!process.stdin.isTTY)
        return nothingInstalled(
          'Nothing installed: stdin is not a terminal; pass --yes to install without asking.\n',
        );
      if (!(await confirm(`Install ${candidates.map((c) => oneLine(c.name)).join(', ')}? [y/N] `)))
        return nothingInstalled('Nothing installed.\n');
    }
    const onConflict = flags.replace ? 'replace' : flags.name ? 'rename' : 'cancel';
    const result = await engine.install.commit(
      preview.previewId,
      preview.candidates.map((c) => ({
        name: c.name,
        onConflict,
        ...(flags.name ? { newName: flags.name } : {}),
      })),
    );
    preview = undefined;
    if (flags.json) process.stdout.write(`${JSON.stringify({ ...result, candidates })}\n`);
    else {
      for (const s of result.installed)
        process.stdout.write(
          `✓ installed ${oneLine(s.name)} → ${oneLine(s.path)}${s.replacedBackup ? ` (previous version kept in the trash: ${s.replacedBackup.trashId})` : ''}\n`,
        );
      for (const s of result.skipped)
        process.stdout.write(
          `✗ skipped ${oneLine(s.name)}: ${oneLine(s.reason)}${/exists/.test(s.reason) ? ' Use --replace or --name NEW.' : ''}\n`,
        );
    }
    return result.skipped.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    process.stderr.write(`${error.message}\n`);
    // A refused source (zip slip, a link out, past a limit) says why on stdout too under --json.
    if (flags.json) process.stdout.write(`${JSON.stringify({ error: error.message, code: error.code })}\n`);
    return 1;
  } finally {
    if (preview) await engine.install.cancel(preview.previewId);
    await engine.close();
  }
}

/** `skills remove NAME`: moves a managed skill to the trash (undo: `skills restore TRASH_ID`). */
export async function skillsRemove(
  name: string | undefined,
  flags: DiscoveryFlags & { json: boolean },
): Promise<number> {
  if (!name) {
    process.stderr.write('usage: skilldeck skills remove NAME\n');
    return 2;
  }
  const engine = await openEngine(flags);
  try {
    const matches = engine.skills.list().skills.filter((s) => s.name === name);
    const target = matches.find((s) => s.source === 'managed') ?? matches[0];
    if (!target) {
      process.stderr.write(`No skill named ${name}.\n`);
      return 1;
    }
    const item = await engine.install.remove(target.id);
    if (flags.json) process.stdout.write(`${JSON.stringify(item)}\n`);
    else process.stdout.write(`Moved ${name} to the trash. Undo: skilldeck skills restore ${item.trashId}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}

/** `skills restore TRASH_ID`: undo a remove or a replace. */
export async function skillsRestore(trashId: string | undefined, flags: DiscoveryFlags): Promise<number> {
  const engine = await openEngine(flags);
  try {
    if (!trashId) {
      // Without an id: list what can be restored.
      const items = engine.install.trashList();
      process.stdout.write(
        items.length
          ? `${items.map((i) => `${i.trashId}  ${i.name}  ${i.reason} ${i.removedAt}`).join('\n')}\n`
          : 'The trash is empty.\n',
      );
      return 0;
    }
    const restored = await engine.install.restore(trashId);
    process.stdout.write(`Restored ${restored.name} → ${restored.id}\n`);
    if (restored.replaced)
      process.stdout.write(
        `The version that was there is in the trash. Undo: skilldeck skills restore ${restored.replaced.trashId}\n`,
      );
    return 0;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}
