import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, tempDir, writeTree } from '../../testing/fixtures';
import { commandWords, fillArgs, resolveScriptCall } from './entrypoints';
import { answerWith } from './testSkills';
import type { FileEntry } from '../../../shared/contract';

const VALUES = { input: { name: 'Ada', nested: { n: 2 } }, system: { cwd: '/w', timestamp: 't' } };

describe('an entrypoint written as a command line', () => {
  it('is split as a shell splits it: quotes group, backslashes escape, $NAME stays as written', () => {
    expect(commandWords(`python3 scripts/x.py "two words" 'it''s' a\\ b $HOME "$USER"`)).toEqual({
      words: ['python3', 'scripts/x.py', 'two words', 'its', 'a b', '$HOME', '$USER'],
    });
    expect(commandWords('bash scripts/x.sh *.csv # the default')).toEqual({
      words: ['bash', 'scripts/x.sh', '*.csv'],
    });
  });

  it('refuses what needs a shell, saying which operator', () => {
    for (const [line, op] of [
      ['python3 scripts/x.py | head', '|'],
      ['bash scripts/x.sh > out.txt', '>'],
      ['bash scripts/x.sh && rm -rf out', '&&'],
      ['bash scripts/x.sh; id', ';'],
    ])
      expect(commandWords(line)).toEqual({ error: expect.stringContaining(`shell operator "${op}"`) });
  });

  it('fills {{input.x}} and {{system.cwd}} in its arguments, and names what is missing', () => {
    const script = {
      name: 'main',
      path: 'scripts/x.py',
      args: ['{{input.name}}', 'n={{input.nested.n}}', '{{system.cwd}}'],
    };
    expect(fillArgs(script, VALUES)).toEqual({ args: ['Ada', 'n=2', '/w'] });
    const missing = fillArgs({ ...script, args: ['{{input.file}}', '{{input.name}}'] }, VALUES);
    expect(missing).toEqual({
      error: `The entrypoint main needs {{input.file}}, and the run gave no value for it. Give it with --input '{"file": "…"}', or in a chat the model passes it.`,
    });
    expect(fillArgs({ ...script, args: ['--all'] }, VALUES)).toEqual({ args: ['--all'] });
  });

  it("reads a model's quoted arguments as one word each", () => {
    const files = [{ path: 'scripts/x.py', kind: 'file', size: 1 } as FileEntry];
    expect(resolveScriptCall(files, `python3 scripts/x.py "New York" --days 3`, ['more'])).toEqual({
      path: 'scripts/x.py',
      args: ['New York', '--days', '3', 'more'],
    });
  });
});

describe('an entrypoint command runs as written (real engine, real bwrap)', () => {
  const engines = isolatedEngines();
  afterEach(() => engines.cleanup());

  const skillWith = (command: string) => {
    const root = tempDir('entry-cmd-');
    const skill = path.join(root, 'argv-echo');
    writeTree(skill, {
      'SKILL.md': '---\nname: argv-echo\ndescription: Prints its arguments.\n---\n# argv-echo\n',
      'skill.yaml': `entrypoints:\n  - command: ${JSON.stringify(command)}\n`,
      'scripts/echo.py': 'import json, sys\nprint(json.dumps(sys.argv[1:]))\n',
    });
    return { root, skill };
  };

  it('passes quoted words whole and the input where the command names it', async () => {
    const { root, skill } = skillWith(`python3 scripts/echo.py "{{input.city}}" 'two words' --tag $HOME`);
    const { engine } = await engines.open({ skillDirs: [root], noDefaultPaths: true });
    answerWith(engine, () => 'allow_once');
    const run = await engine.execution.start({ id: skill, task: 'go', input: { city: 'New York' } }).done;
    expect(run).toMatchObject({ status: 'success', sandbox: 'bwrap' });
    expect(JSON.parse(run.output)).toEqual(['New York', 'two words', '--tag', '$HOME']);
  });

  it('does not run, and says how to give it, when the input lacks what the command names', async () => {
    const { root, skill } = skillWith(`python3 scripts/echo.py "{{input.city}}"`);
    const { engine } = await engines.open({ skillDirs: [root], noDefaultPaths: true });
    const asked = answerWith(engine, () => 'allow_once');
    const run = await engine.execution.start({ id: skill, task: 'go' }).done;
    expect(run.status).toBe('failure');
    expect(run.error).toContain('The entrypoint echo needs {{input.city}}');
    expect(asked.requests).toHaveLength(0);
  });

  it('does not run a command that needs a shell, and says why', async () => {
    const { root, skill } = skillWith('python3 scripts/echo.py a | head -1');
    const { engine } = await engines.open({ skillDirs: [root], noDefaultPaths: true });
    const asked = answerWith(engine, () => 'allow_once');
    const run = await engine.execution.start({ id: skill, task: 'go' }).done;
    expect(run.status).toBe('failure');
    expect(run.error).toContain('uses the shell operator "|"');
    expect(asked.requests).toHaveLength(0);
  });

  it('runs a perl script by its extension, inside bwrap', async () => {
    const root = tempDir('entry-pl-');
    const skill = path.join(root, 'perl-hello');
    writeTree(skill, {
      'SKILL.md': '---\nname: perl-hello\ndescription: Says hello in perl.\n---\n# perl-hello\n',
      'scripts/hello.pl':
        'use strict; use POSIX qw(floor); print "hello ", floor(2.7), " $ENV{SKILL_NAME}\\n";\n',
    });
    const { engine } = await engines.open({ skillDirs: [root], noDefaultPaths: true });
    answerWith(engine, () => 'allow_once');
    const run = await engine.execution.start({ id: skill, task: 'go' }).done;
    expect(run).toMatchObject({ status: 'success', sandbox: 'bwrap', output: 'hello 2 perl-hello\n' });
  });
});
