import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { onPath } from '../engine/skills/readiness';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// DESIGN §7 `skilldeck run`, as a real process: every bundled script skill on this machine.
const root = tempDir('skilldeck-cli-run-');
const cli = path.join(root, 'cli.cjs');
const bundled = path.resolve(__dirname, '../../skills');
const repo = path.join(root, 'repo');

beforeAll(async () => {
  await buildCliBundle(cli);
  // A git repository for git-changelog, inside the (fake) home it may read.
  writeTree(repo, { 'README.md': 'hi\n' });
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: repo, env: { ...process.env, HOME: root } });
  git('init', '-q');
  git('-c', 'user.email=a@b.c', '-c', 'user.name=A', 'add', '.');
  git('-c', 'user.email=a@b.c', '-c', 'user.name=A', 'commit', '-qm', 'feat: first feature');
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (args: string[], home = path.join(root, 'home'), skills = bundled) =>
  spawnSync(process.execPath, [cli, 'run', ...args, '--no-default-paths', '--skills', skills], {
    env: { ...envWithoutModel(), SKILLDECK_HOME: home, HOME: root },
    encoding: 'utf8',
    input: '',
  });

const json = (args: string[]) => {
  const result = run([...args, '--json']);
  return { code: result.status, run: RunResult.parse(JSON.parse(result.stdout)), stderr: result.stderr };
};

describe('skilldeck run: the bundled script skills', () => {
  const cases: [string, string, RegExp][] = [
    ['unit-converter', '3斤是多少公斤', /1\.5 kg/],
    ['json-format', 'format this json {"a":1,"b":[1,2]}', /"b": \[/],
    ['csv-summary', 'summarize this csv:\nname,age\nann,31\nbo,42\n', /2 rows × 2 columns/],
    ['invoice-organizer', 'ACME Ltd\nInvoice #: 42\nDate: 2024-03-05\nTotal Due: $1,085.00\n', /1085/],
    ['save-note', 'save a note: buy oat milk', /Created `out\//],
    ['git-changelog', `changelog for ${repo}`, /first feature/],
  ];
  it.each(cases)('%s runs in the sandbox with --approve', (skill, task, expected) => {
    const { code, run: result } = json([skill, task, '--approve']);
    expect(result.error).toBeNull();
    expect(result).toMatchObject({ status: 'success', sandbox: 'bwrap', exit_code: 0 });
    expect(result.output).toMatch(expected);
    expect(code).toBe(0);
  });

  it('csv-summary finds a file the task names relative to the folder it was asked in, outside the home', () => {
    const workspace = tempDir('skilldeck-cli-ws-');
    writeTree(workspace, { 'people.csv': 'name,age\nann,31\nbo,42\n' });
    const asked = spawnSync(
      process.execPath,
      [
        cli,
        'run',
        'csv-summary',
        'give me stats on people.csv',
        '--json',
        '--no-default-paths',
        '--skills',
        bundled,
      ],
      {
        env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, 'home'), HOME: root },
        encoding: 'utf8',
        input: '',
        cwd: workspace,
      },
    );
    const result = RunResult.parse(JSON.parse(asked.stdout));
    // approval: auto, no --approve: its project folder is one of its own, with no network.
    expect(result).toMatchObject({ status: 'success', sandbox: 'bwrap' });
    expect(result.output).toContain(`CSV summary: ${fs.realpathSync(workspace)}/people.csv`);
    expect(result.output).toMatch(/2 rows × 2 columns/);
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('save-note leaves its file in the run folder, listed with its path', () => {
    const { run: result } = json(['save-note', 'save a note: remember the keys', '--approve']);
    const [file] = result.files;
    expect(file.path).toMatch(/^out\/.*remember-the-keys\.md$/);
    expect(fs.readFileSync(file.abs, 'utf8')).toContain('remember the keys');
  });

  it('pdf-to-text says which prerequisite is missing (or runs where poppler is installed)', () => {
    const { code, run: result } = json(['pdf-to-text', 'extract text from missing.pdf', '--approve']);
    expect(code).toBe(1);
    if (onPath('pdftotext')) expect(result.error).toMatch(/missing\.pdf/);
    else expect(result.error).toBe('Missing prerequisite for pdf-to-text: not on PATH: pdftotext.');
  });

  it('denies without --approve when there is no terminal to ask, and with --deny', () => {
    for (const flags of [[], ['--deny']]) {
      const { code, run: result, stderr } = json(['save-note', 'save a note: nope', ...flags]);
      expect(code).toBe(1);
      expect(result.status).toBe('denied');
      expect(result.files).toEqual([]);
      expect(stderr).toBe('');
    }
  });

  it('--json still says on stderr, before the run, that a process tier enforces no file or network rule', () => {
    // DESIGN §4: never a silent downgrade, --approve and --json included.
    const extra = path.join(root, 'unenforced');
    writeTree(extra, {
      'loose/SKILL.md': '---\nname: loose\ndescription: Runs without the OS sandbox.\n---\n# loose\n',
      'loose/skill.yaml': 'execution_policy: { sandbox: process }\n',
      'loose/scripts/go.sh': 'echo ran\n',
    });
    const r = spawnSync(
      process.execPath,
      [cli, 'run', 'loose', 'go', '--no-default-paths', '--skills', extra, '--approve', '--json'],
      {
        env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, 'home'), HOME: root },
        encoding: 'utf8',
      },
    );
    expect(RunResult.parse(JSON.parse(r.stdout))).toMatchObject({ status: 'success', sandbox: 'process' });
    expect(r.stderr).toMatch(/sandbox {2}process — NOT enforced here: file read and write permissions/);
    // It declares no network, but nothing holds it to that: the request says what it can reach.
    expect(r.stderr).toMatch(/network {2}any host/);
  });

  it('prints the output and a summary line without --json; usage errors exit 2', () => {
    const plain = run(['unit-converter', 'convert 5 miles to km']);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('5 mi = 8.04672 km');
    expect(plain.stderr).toMatch(/✓ unit-converter success · sandbox bwrap/);
    expect(run(['no-such-skill', 'x']).status).toBe(2);
    // A name in another case or spelling, or its folder's name, finds it as `$name` would.
    expect(run(['Unit Converter', 'convert 5 miles to km']).stdout).toContain('5 mi = 8.04672 km');
    expect(run(['UNIT_CONVERTER', 'convert 5 miles to km']).stdout).toContain('5 mi = 8.04672 km');
    const extra = path.join(root, 'extra');
    writeTree(extra, {
      'birthday_cards/SKILL.md':
        '---\nname: Greeting Card\ndescription: Writes a greeting card.\n---\nDear {{input.task}}, happy birthday!\n',
      'birthday_cards/skill.yaml': 'spec: { type: direct }\n',
    });
    // By the name as one word, and by the folder's name.
    expect(run(['greeting-card', 'Ann'], undefined, extra).stdout).toContain('Dear Ann, happy birthday!');
    expect(run(['birthday-cards', 'Bo'], undefined, extra).stdout).toContain('Dear Bo, happy birthday!');
    expect(run(['unit-converter', 'x', '--approve', '--deny']).status).toBe(2);
    expect(run(['unit-converter', 'x', '--input', '[1]']).status).toBe(2);
  });

  it('a skill’s own approval: auto does not cover writing outside its folders: asked, so denied here', () => {
    const victim = path.join(root, 'victim');
    fs.mkdirSync(victim, { recursive: true });
    fs.writeFileSync(path.join(victim, 'keep.txt'), 'keep');
    const dir = path.join(root, 'self-approving');
    writeTree(dir, {
      'overwriter/SKILL.md': '---\nname: overwriter\ndescription: Overwrites a file.\n---\nRun it.\n',
      'overwriter/skill.yaml': `entrypoints: [scripts/w.sh]\npermissions: { filesystem: { write: ['${victim}/**'] } }\nexecution_policy: { approval: auto }\n`,
      'overwriter/scripts/w.sh': `echo gone > ${victim}/keep.txt\n`,
    });
    const r = run(['overwriter', 'go', '--json'], undefined, dir);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'denied' });
    expect(fs.readFileSync(path.join(victim, 'keep.txt'), 'utf8')).toBe('keep');
    // Without --json the request says why it asks.
    expect(run(['overwriter', 'go'], undefined, dir).stderr).toContain(
      `because  it declares approval: auto, but writes ${victim}/**`,
    );
    // Approved, it runs and writes.
    expect(JSON.parse(run(['overwriter', 'go', '--json', '--approve'], undefined, dir).stdout)).toMatchObject(
      {
        status: 'success',
      },
    );
    expect(fs.readFileSync(path.join(victim, 'keep.txt'), 'utf8')).toBe('gone\n');
  });

  it('with --json, a run that cannot start still prints the run shape on stdout, and exits 2', () => {
    for (const args of [
      ['no-such-skill', 'x'],
      ['unit-converter', 'x', '--input', 'not json'],
      ['unit-converter', 'x', '--approve', '--deny'],
      [],
      ['unit-converter', 'x', '--no-such-option'],
    ]) {
      const r = run([...args, '--json']);
      expect(r.status, args.join(' ')).toBe(2);
      const shape = RunResult.pick({
        status: true,
        output: true,
        error: true,
        sandbox: true,
        duration_ms: true,
      });
      expect(shape.parse(JSON.parse(r.stdout))).toMatchObject({ status: 'failure', sandbox: 'none' });
      // The same words on stdout's error as on stderr.
      expect(r.stderr).toContain((JSON.parse(r.stdout) as { error: string }).error);
    }
    expect(JSON.parse(run(['no-such-skill', 'x', '--json']).stdout).error).toMatch(
      /No skill named "no-such-skill"/,
    );
  });

  it('a script whose first line names an interpreter nobody knows is named, with that interpreter', () => {
    const dir = path.join(root, 'odd-interpreters');
    writeTree(dir, {
      'odd-one/SKILL.md': '---\nname: odd-one\ndescription: Converts with an odd tool.\n---\nRun it.\n',
      'odd-one/scripts/convert': '#!/unknown/interp\nconvert everything\n',
      'odd-env/SKILL.md': '---\nname: odd-env\ndescription: Converts with another odd tool.\n---\nRun it.\n',
      'odd-env/scripts/convert': '#!/usr/bin/env frobnicate -q\nconvert everything\n',
      'odd-awk/SKILL.md': '---\nname: odd-awk\ndescription: Converts with awk.\n---\nRun it.\n',
      'odd-awk/scripts/convert': '#!/usr/bin/awk -f\nBEGIN { print 1 }\n',
    });
    fs.chmodSync(path.join(dir, 'odd-one/scripts/convert'), 0o755);
    const runIn = (skill: string) => {
      const r = run([skill, 'convert it', '--json', '--approve'], undefined, dir);
      return { code: r.status, result: RunResult.parse(JSON.parse(r.stdout)) };
    };
    const known = 'such as "#!/usr/bin/env python3", or give it a .py, .sh, .js or .ts extension.';
    const one = runIn('odd-one');
    expect(one.code).toBe(1);
    expect(one.result.status).toBe('failure');
    expect(one.result.error).toBe(
      `odd-one's script scripts/convert needs the interpreter /unknown/interp (its first line is "#!/unknown/interp"), which is not installed here and which SkillDeck does not know. Install it, or start the script with a known interpreter ${known}`,
    );
    expect(runIn('odd-env').result.error).toBe(
      `odd-env's script scripts/convert needs the interpreter frobnicate (its first line is "#!/usr/bin/env frobnicate -q"), which is not installed here and which SkillDeck does not know. Install it, or start the script with a known interpreter ${known}`,
    );
    // Installed, but not one SkillDeck runs: it is not run, and the message says so.
    expect(runIn('odd-awk').result.error).toBe(
      `odd-awk's script scripts/convert needs the interpreter /usr/bin/awk (its first line is "#!/usr/bin/awk -f"), which SkillDeck does not know how to run. Start the script with a known interpreter ${known}`,
    );
  });
});
