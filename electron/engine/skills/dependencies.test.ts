import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envWithoutModel, isolatedEngines, tempDir, writeTree } from '../../testing/fixtures';
import { installerArgv } from './installHints';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

/** A real npm package with one program, packed to a tarball npm installs without the network. */
function packedProgram(root: string, bin: string): string {
  const dir = path.join(root, 'pkg');
  writeTree(dir, {
    'package.json': JSON.stringify({ name: bin, version: '1.0.0', bin: { [bin]: 'bin/run.js' } }),
    'bin/run.js': `#!/usr/bin/env node\nconsole.log('${bin} ok');\n`,
  });
  execFileSync('npm', ['pack', '--silent'], { cwd: dir, stdio: 'ignore' });
  return path.join(dir, `${bin}-1.0.0.tgz`);
}

/** A skill that needs `bin`, with OpenClaw install entries: npm (runnable here) and brew (not on PATH here). */
const skill = (bin: string, tarball: string) => `---
name: lights
description: Dim and brighten the lights in a room.
metadata:
  { "openclaw": { "requires": { "bins": ["${bin}"] },
      "install": [{ "kind": "node", "package": "${tarball}", "bins": ["${bin}"], "label": "Install the lights CLI (npm)" },
                  { "kind": "brew", "formula": "example/tap/${bin}", "bins": ["${bin}"] }] } }
---
Run \`${bin}\` to set a room's brightness.
`;

async function open(bin: string, tarball: (root: string) => string) {
  const root = tempDir();
  const prefix = path.join(root, 'prefix');
  const env = {
    ...envWithoutModel(),
    // npm's global folder in the test's own prefix: nothing lands in the machine's.
    npm_config_prefix: prefix,
    npm_config_cache: path.join(root, 'npm-cache'),
    PATH: [path.join(prefix, 'bin'), ...(process.env.PATH ?? '').split(path.delimiter)]
      .filter((dir) => !fs.existsSync(path.join(dir, 'brew')))
      .join(path.delimiter),
  };
  const opened = await engines.open({ env });
  writeTree(opened.workspace, { 'skills/lights/SKILL.md': skill(bin, tarball(root)) });
  await opened.engine.reloadSkills();
  const id = path.join(opened.workspace, 'skills', 'lights');
  return { ...opened, id, prefix };
}

describe('installing what a skill needs, from its own install entries (users’ ask #13)', () => {
  it('runs the npm hint the user picked, and the skill can run afterwards', async () => {
    const bin = 'lights-cli-test';
    const { engine, id, prefix } = await open(bin, (root) => packedProgram(root, bin));
    const before = engine.install.diagnose(id).reasons.find((r) => r.code === 'missing-bin');
    const [npm, brew] = before?.install ?? [];
    expect(npm).toMatchObject({ label: 'Install the lights CLI (npm)', runnable: true });
    expect(npm.command).toMatch(/^npm install -g \/.*lights-cli-test-1\.0\.0\.tgz$/);
    // brew is not on this PATH: shown to copy, not offered to run.
    expect(brew).toEqual({ command: `brew install example/tap/${bin}` });
    expect(engine.routing.preview('dim the lights in the kitchen').candidates[0]).toMatchObject({
      name: 'lights',
      status: 'unavailable',
    });

    const done = await engine.install.installDependency(id, npm.command);
    expect(done).toMatchObject({ command: npm.command, ok: true, exit_code: 0, missing: [] });
    expect(done.output).toMatch(/added 1 package/);
    expect(fs.existsSync(path.join(prefix, 'bin', bin))).toBe(true);
    expect(engine.install.diagnose(id).reasons.map((r) => r.code)).not.toContain('missing-bin');
    // The router checks PATH afresh at once, not after its cache expires.
    expect(engine.routing.preview('dim the lights in the kitchen').candidates[0].status).not.toBe(
      'unavailable',
    );
  }, 120_000);

  it('says what failed when the installer fails, and the program is still missing', async () => {
    const bin = 'lights-cli-gone';
    const { engine, id } = await open(bin, (root) => path.join(root, 'no-such-package.tgz'));
    const [npm] = engine.install.diagnose(id).reasons.find((r) => r.code === 'missing-bin')?.install ?? [];
    const done = await engine.install.installDependency(id, npm.command);
    expect(done.ok).toBe(false);
    expect(done.exit_code).not.toBe(0);
    expect(done.output).toMatch(/ENOENT|no such file/i);
    expect(done.missing).toEqual([bin]);
  }, 120_000);

  it('shows what the installer prints while it runs, not only when it is done', async () => {
    const bin = 'lights-cli-brewed';
    const { engine, id, prefix } = await open(bin, (root) => path.join(root, 'unused.tgz'));
    // A stand-in Homebrew on this PATH: it prints as a real one does (a progress bar redrawn with
    // carriage returns, coloured headings), slowly, then puts the program in place.
    writeTree(prefix, {
      'bin/brew': [
        '#!/bin/sh',
        'echo "==> Fetching $2"',
        'sleep 1',
        "printf 'Downloading  10%%\\r'",
        'sleep 0.3',
        "printf 'Downloading 100%%\\n\\033[32m==> Pouring\\033[0m\\n'",
        `printf '#!/bin/sh\\necho ok\\n' > "$(dirname "$0")/${bin}"`,
        `chmod +x "$(dirname "$0")/${bin}"`,
        'echo "==> Installed"',
      ].join('\n'),
    });
    fs.chmodSync(path.join(prefix, 'bin', 'brew'), 0o755);
    const hints = engine.install.diagnose(id).reasons.find((r) => r.code === 'missing-bin')?.install ?? [];
    const brew = hints.find((h) => h.command.startsWith('brew '));
    expect(brew).toEqual({ command: `brew install example/tap/${bin}`, runnable: true });

    const seen: { at: number; id: string; command: string; chunk: string }[] = [];
    const stop = engine.events.subscribe((name, payload) => {
      if (name === 'skills.dependencyOutput')
        seen.push({ at: Date.now(), ...(payload as Omit<(typeof seen)[0], 'at'>) });
    });
    const done = await engine.install.installDependency(id, brew!.command);
    const ended = Date.now();
    stop();
    expect(done).toMatchObject({ ok: true, missing: [] });
    // The first line arrived while the installer was still at work, a second and more before its end.
    expect(seen[0].chunk).toBe(`==> Fetching example/tap/${bin}\n`);
    expect(ended - seen[0].at).toBeGreaterThan(800);
    expect(seen.every((e) => e.id === id && e.command === brew!.command)).toBe(true);
    // Streamed, it reads as the whole does: the bar's redraw a line of its own, no escapes.
    expect(seen.map((e) => e.chunk).join('')).toBe(`${done.output}\n`);
    expect(done.output).toBe(
      `==> Fetching example/tap/${bin}\nDownloading  10%\nDownloading 100%\n==> Pouring\n==> Installed`,
    );
  }, 120_000);

  it('runs nothing but a runnable hint of the skill, named exactly', async () => {
    const bin = 'lights-cli-never';
    const { engine, id, prefix } = await open(bin, (root) => packedProgram(root, bin));
    const refused = async (command: string) =>
      engine.install.installDependency(id, command).then(
        () => 'ran',
        (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
      );
    expect(await refused('rm -rf ~')).toMatch(/^forbidden: .*is not one of lights's install commands/);
    expect(await refused(`npm install -g ${bin}`)).toMatch(/^forbidden/);
    expect(await refused(`brew install example/tap/${bin}`)).toMatch(/^forbidden: .*copy it into a terminal/);
    expect(fs.existsSync(path.join(prefix, 'bin'))).toBe(false);
    await expect(engine.install.installDependency('/no/such/skill', 'x')).rejects.toMatchObject({
      code: 'not_found',
    });
  }, 120_000);
});

describe('which install entries SkillDeck runs', () => {
  const everything = () => true;
  it('runs the user’s package managers without sudo, and never a command the skill writes out', () => {
    expect(installerArgv({ kind: 'brew', formula: 'openhue/cli/openhue-cli' }, everything)).toEqual([
      'brew',
      'install',
      'openhue/cli/openhue-cli',
    ]);
    expect(installerArgv({ kind: 'go', module: 'github.com/x/y/cmd/y' }, everything)).toEqual([
      'go',
      'install',
      'github.com/x/y/cmd/y@latest',
    ]);
    // pip as a tool: pipx where it is, else uv; a bare pip meets PEP 668 on Debian.
    expect(installerArgv({ kind: 'pip', package: 'yt-dlp' }, (b) => b === 'uv')).toEqual([
      'uv',
      'tool',
      'install',
      'yt-dlp',
    ]);
    expect(installerArgv({ kind: 'pip', package: 'yt-dlp' }, (b) => b === 'python3')).toBeNull();
    expect(installerArgv({ kind: 'apt', package: 'ffmpeg' }, everything)).toBeNull();
    expect(installerArgv({ kind: 'shell', command: 'curl x | sh' }, everything)).toBeNull();
    expect(installerArgv({ kind: 'download', url: 'https://x.example/a' }, everything)).toBeNull();
    // Nothing that reads as an option or hides a second word.
    expect(installerArgv({ kind: 'node', package: '--prefix=/etc' }, everything)).toBeNull();
    expect(installerArgv({ kind: 'node', package: 'a b' }, everything)).toBeNull();
    expect(installerArgv({ kind: 'cargo', git: 'file:///etc' }, everything)).toBeNull();
    expect(installerArgv({ kind: 'node', package: 'x' }, () => false)).toBeNull();
  });
});
