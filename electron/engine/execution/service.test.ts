import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult, RunTransition } from '../../../shared/contract';
import { isolatedEngines, writeTree } from '../../testing/fixtures';
import { answerWith } from './testSkills';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const bundled = path.resolve(__dirname, '../../../skills');

async function open() {
  const opened = await engines.open({ bundledDir: bundled });
  const { engine } = opened;
  const transitions: RunTransition[] = [];
  engine.events.subscribe((name, payload) => {
    if (name === 'run.transition') transitions.push(payload as RunTransition);
  });
  const idOf = (name: string) => {
    const found = engine.listSkills().skills.find((s) => s.name === name);
    if (!found) throw new Error(`no skill ${name}`);
    return found.id;
  };
  return { ...opened, transitions, idOf };
}

describe('ExecutionService without a sandbox run', () => {
  it('runs a direct skill: fills its template, records the run and its timeline', async () => {
    const { engine, workspace, transitions, idOf } = await open();
    writeTree(path.join(workspace, 'skills', 'greet'), {
      'SKILL.md':
        '---\nname: greet\ndescription: Greets someone by name.\nmode: direct\n---\nHello {{input.who}} from {{system.cwd}} ({{input.task}})\n',
    });
    await engine.reloadSkills();
    const { run_id, done } = engine.execution.start({
      id: idOf('greet'),
      task: 'say hi',
      input: { who: 'Ann' },
    });
    const result: RunResult = await done;
    expect(result).toMatchObject({ run_id, status: 'success', sandbox: 'none', error: null, skill: 'greet' });
    expect(result.output).toBe(`Hello Ann from ${workspace} (say hi)\n`);
    expect(result.timeline.map((t) => t.state)).toEqual(['selected', 'success']);
    expect(transitions.filter((t) => t.run_id === run_id)).toEqual(result.timeline);
    const record = engine.execution.get(run_id);
    expect(record.summary).toMatchObject({ status: 'success', skill: 'greet', task: 'say hi' });
    expect(record.input).toEqual({ who: 'Ann' });
    expect(engine.execution.list(10).map((r) => r.run_id)).toEqual([run_id]);
    // Stats feed the success factor.
    expect(engine.routing.stats.get('greet')).toEqual({ runs: 1, successes: 1 });
  });

  it('keeps records across engine restarts and lists newest first', async () => {
    const { engine, home, idOf } = await open();
    const id = idOf('meeting-notes');
    const first = await engine.execution.start({ id, task: 'a' }).done;
    const second = await engine.execution.start({ id, task: 'b' }).done;
    expect(engine.execution.list(10).map((r) => r.run_id)).toEqual([second.run_id, first.run_id]);
    expect(fs.existsSync(path.join(home, 'runs', first.run_id, 'record.json'))).toBe(true);
    expect(() => engine.execution.get('nope')).toThrow(/No run "nope"/);
    expect(() => engine.execution.get('../../etc')).toThrow(/No run/);
  });

  it('says an instruction skill needs a model when none is configured', async () => {
    const { engine, idOf } = await open();
    const result = await engine.execution.start({ id: idOf('code-review'), task: 'review this' }).done;
    expect(result.status).toBe('failure');
    expect(result.error).toMatch(
      /^code-review is an instruction skill: a model follows its steps\. No model configured/,
    );
    expect(result.timeline.map((t) => t.state)).toEqual(['selected', 'fatal_failure', 'exit']);
  });

  it('fails a skill with a missing prerequisite before anything runs, naming what is missing', async () => {
    const { engine, workspace, idOf } = await open();
    writeTree(path.join(workspace, 'skills', 'needs-tool'), {
      'SKILL.md': '---\nname: needs-tool\ndescription: Needs a tool nobody has.\n---\n# x\n',
      'skill.yaml': 'prerequisites: { bins: [skilldeck-no-such-tool], env: [SKILLDECK_NO_SUCH_VAR] }\n',
      'scripts/run.sh': 'touch ran\n',
    });
    await engine.reloadSkills();
    const result = await engine.execution.start({ id: idOf('needs-tool'), task: 'go' }).done;
    expect(result.status).toBe('failure');
    expect(result.error).toBe(
      'Missing prerequisite for needs-tool: not on PATH: skilldeck-no-such-tool; environment variables not set: SKILLDECK_NO_SUCH_VAR.',
    );
    expect(result.command).toEqual([]);
  });

  it('refuses an unknown skill id with not_found', async () => {
    const { engine } = await open();
    expect(() => engine.execution.start({ id: '/nowhere', task: '' })).toThrow(/No skill with id/);
  });

  it('runs the only file in scripts/ of a skill that declares nothing; with several it asks which', async () => {
    const { engine, workspace, idOf } = await open();
    writeTree(path.join(workspace, 'skills'), {
      'plain/SKILL.md': '---\nname: plain\ndescription: Has one script and no skill.yaml.\n---\n# Plain\n',
      'plain/scripts/hello.py':
        'import json, os\nprint("hello", json.loads(os.environ["INPUT_JSON"])["task"])\n',
      'multi/SKILL.md':
        '---\nname: multi\ndescription: Has two scripts and says how to call them.\n---\n# Multi\n',
      'multi/scripts/a.sh': 'echo a\n',
      'multi/scripts/b.sh': 'echo b\n',
    });
    await engine.reloadSkills();
    answerWith(engine, () => 'allow_once');
    const one = await engine.execution.start({ id: idOf('plain'), task: 'world' }).done;
    expect(one).toMatchObject({ status: 'success', output: 'hello world\n', sandbox: 'bwrap' });
    const several = await engine.execution.start({ id: idOf('multi'), task: 'x' }).done;
    expect(several.error).toBe(
      'multi has several scripts and no declared entrypoint; pick one: a, b. Or configure a model (Settings → Model) to follow its instructions.',
    );
    const picked = await engine.execution.start({ id: idOf('multi'), task: 'x', entrypoint: 'scripts/b.sh' })
      .done;
    expect(picked.output).toBe('b\n');
  });
});
