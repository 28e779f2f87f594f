import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../testing/fixtures';
import { selectBackend } from './index';
import { resolveInterpreter } from './interpreter';
import { probeSandbox, type SandboxProbe } from './probe';

describe('resolveInterpreter', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('skilldeck-interp-');
    writeTree(dir, {
      'a.py': 'print(1)\n',
      'b.sh': 'echo 1\n',
      'c.mjs': 'console.log(1)\n',
      'd.ts': 'const x: number = 1;\n',
      tool: '#!/usr/bin/env python3\nprint(1)\n',
      run: '#!/bin/sh -e\necho 1\n',
      bin: 'no shebang\n',
      notes: 'plain text\n',
    });
    for (const f of ['tool', 'run', 'bin']) fs.chmodSync(path.join(dir, f), 0o755);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('resolves python3 (a pyenv shim included) to the real executable and its prefix', () => {
    const r = resolveInterpreter(path.join(dir, 'a.py'));
    if (!r.ok) throw new Error(r.error);
    expect(r.command).not.toContain('/shims/');
    expect(fs.realpathSync(r.command)).toBe(r.command);
    expect(r.args).toEqual([path.join(dir, 'a.py')]);
    expect(r.readPrefixes.some((p) => r.command.startsWith(p + '/'))).toBe(true);
  });

  it('runs .sh with bash and .mjs with a node on PATH', () => {
    const sh = resolveInterpreter(path.join(dir, 'b.sh'));
    expect(sh.ok && path.basename(sh.command)).toBe('bash');
    const js = resolveInterpreter(path.join(dir, 'c.mjs'), {
      isElectron: true,
      execPath: '/opt/SkillDeck/skilldeck',
    });
    if (!js.ok) throw new Error(js.error);
    expect(path.basename(js.command)).toBe('node');
    expect(js.env).toEqual({});
  });

  it("in Electron without node on PATH, runs the app's own binary as node", () => {
    const r = resolveInterpreter(path.join(dir, 'c.mjs'), {
      env: { PATH: '/nonexistent' },
      isElectron: true,
      execPath: '/opt/SkillDeck/skilldeck',
    });
    expect(r).toEqual({
      ok: true,
      command: '/opt/SkillDeck/skilldeck',
      args: [path.join(dir, 'c.mjs')],
      readPrefixes: ['/opt/SkillDeck'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it("binds an interpreter's own folder and runtime folders, never the home it sits in", () => {
    // `#!/home/ana/bin/tool`: the prefix of ~/bin/tool is the home, ~/.ssh included.
    const home = path.join(dir, 'home');
    writeTree(home, { 'bin/tool': '#!/bin/sh\nexec /bin/sh "$@"\n', '.ssh/id_rsa': 'k', 'lib/x': '' });
    fs.chmodSync(path.join(home, 'bin/tool'), 0o755);
    fs.writeFileSync(path.join(dir, 'by-tool'), `#!${home}/bin/tool\necho hi\n`);
    const r = resolveInterpreter(path.join(dir, 'by-tool'));
    if (!r.ok) throw new Error(r.error);
    expect(r.readPrefixes).toEqual([path.join(home, 'bin'), path.join(home, 'lib')]);
  });

  it('never runs a python the shebang names by path to learn its prefix', () => {
    const venv = path.join(dir, 'venv');
    const ran = path.join(dir, 'python-ran');
    writeTree(venv, { 'bin/python3': `#!/bin/sh\ntouch ${ran}\n`, 'pyvenv.cfg': 'home = /usr/bin\n' });
    fs.chmodSync(path.join(venv, 'bin/python3'), 0o755);
    fs.writeFileSync(path.join(dir, 'by-venv'), `#!${venv}/bin/python3\nprint(1)\n`);
    const r = resolveInterpreter(path.join(dir, 'by-venv'));
    expect(fs.existsSync(ran)).toBe(false);
    expect(r).toEqual({
      ok: true,
      command: path.join(venv, 'bin/python3'),
      args: [path.join(dir, 'by-venv')],
      readPrefixes: [path.join(venv, 'bin'), path.join(venv, 'pyvenv.cfg')],
      env: {},
    });
  });

  it('runs .ts with type stripping where node has it, else says what is needed', () => {
    const r = resolveInterpreter(path.join(dir, 'd.ts'));
    const major = Number(process.versions.node.split('.')[0]);
    if (r.ok) {
      expect(major).toBeGreaterThanOrEqual(22);
      expect(r.args).toContain('--experimental-strip-types');
    } else {
      expect(r.error).toMatch(
        /^d\.ts is TypeScript, which needs Node 22\.6 or newer \(type stripping\); this node is \d+\./,
      );
      // The run adds its own full stop ("Cannot run scripts/d.ts: …."): none of its own here.
      expect(r.error).toMatch(/; use a \.js script or install a newer node$/);
    }
  });

  it('follows a shebang, runs a bare executable as itself, and refuses what it cannot run', () => {
    const tool = resolveInterpreter(path.join(dir, 'tool'));
    expect(tool.ok && tool.command).toMatch(/python3(\.\d+)?$/);
    const run = resolveInterpreter(path.join(dir, 'run'));
    expect(run.ok && [run.command, ...run.args]).toEqual([
      fs.realpathSync('/bin/sh'),
      '-e',
      path.join(dir, 'run'),
    ]);
    const bin = resolveInterpreter(path.join(dir, 'bin'));
    expect(bin).toEqual({ ok: true, command: path.join(dir, 'bin'), args: [], readPrefixes: [], env: {} });
    expect(resolveInterpreter(path.join(dir, 'notes'))).toEqual({
      ok: false,
      error: 'no interpreter for notes: add a shebang line or use .py, .sh, .js or .ts',
    });
    expect(resolveInterpreter(path.join(dir, 'gone.py'))).toEqual({
      ok: false,
      error: `the script ${path.join(dir, 'gone.py')} does not exist`,
    });
    expect(resolveInterpreter(path.join(dir, 'a.py'), { env: { PATH: '/nonexistent' } })).toEqual({
      ok: false,
      error: 'python3 is not installed (not on PATH); the script a.py needs it',
    });
  });
});

describe('resolveInterpreter: languages a host may lack', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('skilldeck-interp-other-');
    writeTree(dir, { 'e.pl': 'print 1;\n', 'f.rb': 'puts 1\n', 'g.pl': '#!/usr/bin/perl -w\nprint 1;\n' });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs .pl with perl, and a shebang keeps its flags', () => {
    const pl = resolveInterpreter(path.join(dir, 'e.pl'));
    expect(pl.ok && [pl.command, ...pl.args]).toEqual([
      fs.realpathSync('/usr/bin/perl'),
      path.join(dir, 'e.pl'),
    ]);
    const flagged = resolveInterpreter(path.join(dir, 'g.pl'));
    expect(flagged.ok && flagged.args).toEqual(['-w', path.join(dir, 'g.pl')]);
  });

  it('says which interpreter is missing, not that the file cannot run', () => {
    expect(resolveInterpreter(path.join(dir, 'f.rb'), { env: { PATH: '/nonexistent' } })).toEqual({
      ok: false,
      error: 'ruby is not installed (not on PATH); the script f.rb needs it',
    });
  });
});

describe('selectBackend', () => {
  const none: SandboxProbe = {
    tier: 'process',
    bwrap: null,
    disableUserns: false,
    socat: null,
    sandboxExec: null,
    reason: 'bubblewrap (bwrap) is not installed',
  };

  it('labels none and process as asked, and picks the OS sandbox the probe found', () => {
    expect(selectBackend('none').backend.tier).toBe('none');
    expect(selectBackend('process').backend.tier).toBe('process');
    const os = selectBackend('os');
    expect(os.backend.tier).toBe(probeSandbox().tier);
    expect(os.downgrade).toBeNull();
    expect(os.backend.unenforced).toEqual([]);
  });

  it('falls back to process isolation visibly, with the reason', () => {
    const r = selectBackend('os', { probe: none });
    expect(r.backend.tier).toBe('process');
    expect(r.backend.unenforced.length).toBeGreaterThan(0);
    expect(r.downgrade).toBe(
      'no OS sandbox here (bubblewrap (bwrap) is not installed): only process isolation',
    );
  });
});
