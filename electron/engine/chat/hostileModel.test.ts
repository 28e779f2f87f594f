import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../shared/contract';
import { envWithoutModel, isolatedEngines, writeTree } from '../../testing/fixtures';
import { messageText, startModelServer, type ModelServer } from '../../testing/modelServer';
import { answerWith } from '../execution/testSkills';
import { MAX_TOOL_ROUNDS, REPEAT_LIMIT } from './modelLoop';

// A model that misbehaves (breaks off, says nothing, never stops calling tools, floods the
// context, delegates in chains) against the real engine and the scripted server on loopback.
const engines = isolatedEngines();
let server: ModelServer;
beforeEach(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
});
afterEach(async () => {
  await engines.cleanup();
  await server.close();
});

async function setup() {
  const opened = await engines.open({
    env: { ...envWithoutModel(), OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k', SKILLDECK_MODEL: 'm' },
  });
  writeTree(path.join(opened.workspace, 'skills'), {
    'doc-helper/SKILL.md':
      '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\n# Doc helper\n\nRead references/style.md.\n',
    'doc-helper/references/style.md': 'Use sentence case headings.\n',
    'doc-helper/skill.yaml': 'spec: { type: instruction }\nexecution_policy: { approval: auto }\n',
    'doc-helper/scripts/flood.sh': 'head -c 600000 /dev/zero | tr "\\0" x\n',
    'chain-a/SKILL.md': '---\nname: chain-a\ndescription: Chain A delegates.\n---\nDelegate to chain-b.\n',
    'chain-b/SKILL.md': '---\nname: chain-b\ndescription: Chain B answers.\n---\nAnswer briefly.\n',
  });
  await opened.engine.reloadSkills();
  return opened;
}

const send = (engine: Awaited<ReturnType<typeof setup>>['engine'], message: string): Promise<ChatTurn> =>
  engine.chat.send(undefined, message).done;

describe('a model that breaks off or says nothing', () => {
  it('a fallback answer is the answer, not glued to the broken-off skill text', async () => {
    const { engine } = await setup();
    server.enqueue(
      { text: ['Half ', 'an ', 'answer ', 'never'], dropAfter: 2 },
      { text: 'A proper answer from plain chat.' },
    );
    const turn = await send(engine, '$doc-helper write the intro');
    expect(turn.status).toBe('success');
    expect(turn.answer).toBe('A proper answer from plain chat.');
    // What the skill said before the break stays on its card, with the reason.
    const run = turn.steps.find((s) => s.kind === 'run')!;
    expect(run).toMatchObject({ status: 'failure', output: 'Half an ' });
    expect(run.error).toMatch(/broke off/);
    for (const step of turn.steps) expect(step.answer_offset ?? 0).toBeLessThanOrEqual(turn.answer.length);
  });

  it('an answer cut at the model’s output limit says so where it stops', async () => {
    const { engine } = await setup();
    server.enqueue({ text: 'The intro begins with a long', finishReason: 'length' });
    const turn = await send(engine, 'what a lovely afternoon it is');
    expect(turn.status).toBe('success');
    expect(turn.answer).toBe(
      "The intro begins with a long\n\n_(The answer was cut off at the model's output limit.)_",
    );
    server.enqueue({ text: 'A whole answer.' });
    expect((await send(engine, 'what a lovely afternoon it is')).answer).toBe('A whole answer.');
  });

  it('a stray line that is no chunk does not fail an answer the stream then finished', async () => {
    const { engine } = await setup();
    for (const data of ['this is not json', '{}', '']) {
      server.enqueue({ text: ['A whole ', 'answer.'], strayAfter: { chunks: 1, data } });
      const turn = await send(engine, 'what a lovely afternoon it is');
      expect(turn, JSON.stringify(data)).toMatchObject({ status: 'success', answer: 'A whole answer.' });
      expect(turn.error).toBeUndefined();
    }
  });

  it('an empty answer is an error that says so, not a silent success', async () => {
    const { engine } = await setup();
    server.enqueue({ text: '' });
    const turn = await send(engine, 'what a lovely afternoon it is');
    expect(turn.status).toBe('error');
    expect(turn.answer).toBe('');
    expect(turn.error).toMatch(/^The model did not answer: it returned an empty answer/);
  });

  // A thinking model (DeepSeek-R1, QwQ on a local server with a small output limit) can spend the
  // whole limit thinking: "an empty answer (finish reason: length)" did not say what to change.
  it('an answer cut off while the model was still thinking says so and what to change', async () => {
    const { engine } = await setup();
    server.enqueue({
      text: '',
      reasoning: { text: 'Let me think about the afternoon…' },
      finishReason: 'length',
    });
    const turn = await send(engine, 'what a lovely afternoon it is');
    expect(turn.status).toBe('error');
    expect(turn.error).toBe(
      "The model did not answer: it spent its whole output limit thinking and gave no answer (finish reason: length); raise the model's output limit (max tokens) or ask for less.",
    );
  });

  it('tool calls where no tool was offered are not run, and are no answer', async () => {
    const { engine } = await setup();
    // The skill breaks off; plain chat, the fallback, offers no tool, and the model calls one.
    server.enqueue(
      { text: ['Half ', 'an ', 'answer'], dropAfter: 1 },
      { toolCalls: [{ name: 'list_skill_files', arguments: {} }] },
    );
    const turn = await send(engine, '$doc-helper write the intro');
    expect(server.chatRequests()[1].tools).toBeUndefined();
    // A routed turn ends with its run's status; the fallback's model step says what it did.
    expect(turn.status).toBe('failure');
    // Nothing else answered, so what the skill said before its break is what the turn shows.
    expect(turn.answer).toBe('Half ');
    expect(turn.steps.find((s) => s.id === 'plain:m0')).toMatchObject({
      status: 'error',
      error: 'it asked for list_skill_files, which it was not offered here, instead of answering.',
    });
    expect(turn.steps.filter((s) => s.kind === 'tool')).toHaveLength(0);
  });
});

describe('a model that never stops calling tools', () => {
  it(`runs at most ${MAX_TOOL_ROUNDS} tool rounds, then ends with a clear status`, async () => {
    const { engine } = await setup();
    // A new call each round (the same one again would be stopped as a loop, below).
    server.setHandler((_request, i) => ({
      toolCalls: [{ name: 'read_skill_file', arguments: { path: `references/part${i}.md` } }],
    }));
    const turn = await send(engine, '$doc-helper write the intro');
    const tools = turn.steps.filter((s) => s.kind === 'tool');
    expect(tools).toHaveLength(MAX_TOOL_ROUNDS);
    const run = turn.steps.find((s) => s.kind === 'run')!;
    expect(run).toMatchObject({ status: 'failure' });
    expect(run.error).toMatch(`Stopped after ${MAX_TOOL_ROUNDS} tool rounds`);
    // Plain chat, the fallback, gets tool calls again and no answer: the turn is not a success.
    expect(turn.status).toBe('failure');
    expect(turn.answer).toBe('');
  });
});

describe('a model that answers each tool result with the same call again', () => {
  it(`is stopped at the ${REPEAT_LIMIT}th same call, which does not run`, async () => {
    const { engine } = await setup();
    server.setHandler(() => ({ toolCalls: [{ name: 'list_skill_files', arguments: {} }] }));
    const turn = await send(engine, '$doc-helper write the intro');
    expect(turn.steps.filter((s) => s.kind === 'tool')).toHaveLength(REPEAT_LIMIT - 1);
    expect(turn.steps.find((s) => s.kind === 'run')).toMatchObject({
      status: 'failure',
      error: `Stopped: the model called list_skill_files with the same arguments ${REPEAT_LIMIT} times instead of answering.`,
    });
  });
});

describe('a model that makes the same call several times in one round', () => {
  it('is not going round: the calls run, and it answers from their results', async () => {
    // Counted per call, three in one round were taken for a loop before any ran: the skill
    // failed with "called it 3 times instead of answering" and the fallback answered.
    const { engine } = await setup();
    const list = { name: 'list_skill_files', arguments: {} };
    server.enqueue({ toolCalls: [list, list, list] }, { text: 'The skill has a style guide.' });
    const turn = await send(engine, '$doc-helper write the intro');
    expect(turn).toMatchObject({
      status: 'success',
      skill: 'doc-helper',
      answer: 'The skill has a style guide.',
    });
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => s.status)).toEqual([
      'success',
      'success',
      'success',
    ]);
  });
});

describe('plain chat whose model never stops calling tools', () => {
  it('ends once with a clear status, and still offers skills on the next message', async () => {
    const { engine } = await setup();
    server.setHandler((_request, i) => ({
      toolCalls: [{ name: 'read_skill_file', arguments: { path: `x${i}` } }],
    }));
    const turn = await send(engine, 'could you write a guide for my project?');
    expect(turn.status).toBe('error');
    expect(turn.error).toBe(`Stopped after ${MAX_TOOL_ROUNDS} tool rounds without a final answer.`);
    // The offer's rounds and its last, tool-less round: not asked once more as a model without tools.
    expect(server.chatRequests()).toHaveLength(MAX_TOOL_ROUNDS + 1);
    const models = turn.steps.filter((s) => s.kind === 'model');
    expect(models.map((s) => s.status)).toEqual([...Array(MAX_TOOL_ROUNDS).fill('success'), 'error']);
    server.setHandler(() => ({ text: 'A guide starts with who it is for.' }));
    await engine.chat.send(turn.conversation_id, 'could you write a guide for my project?').done;
    expect(
      server
        .chatRequests()
        .at(-1)!
        .tools?.map((t) => t.function.name),
    ).toEqual(['run_skill']);
  });
});

describe('tool results the model could not take in', () => {
  it('a script that prints a flood comes back cut, saying where', async () => {
    const { engine } = await setup();
    answerWith(engine, () => 'allow_once');
    server.enqueue(
      { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/flood.sh' } }] },
      { text: 'Flooded.' },
    );
    const turn = await send(engine, '$doc-helper write the intro');
    expect(turn.status).toBe('success');
    const result = messageText(server.chatRequests()[1].messages.find((m) => m.role === 'tool')!);
    expect(result.length).toBeLessThan(50_000);
    expect(result).toMatch(/cut at \d+ characters of 600000/);
  });

  it('a path outside the skill comes back as one sentence saying why, and the turn goes on', async () => {
    const { engine } = await setup();
    server.enqueue(
      {
        toolCalls: [
          { name: 'read_skill_file', arguments: { path: '/etc/passwd' } },
          { name: 'read_skill_file', arguments: { path: '../chain-a/SKILL.md' } },
        ],
      },
      { text: 'Recovered.' },
    );
    const turn = await send(engine, '$doc-helper write the intro');
    expect(turn).toMatchObject({ status: 'success', answer: 'Recovered.' });
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => s.error)).toEqual([
      'Cannot read /etc/passwd: "/etc/passwd" is absolute; give a path relative to the skill folder.',
      'Cannot read ../chain-a/SKILL.md: "../chain-a/SKILL.md" leaves the skill folder ("..").',
    ]);
  });

  it('a link in the skill that points outside it is not listed to the model', async () => {
    const { engine, workspace } = await setup();
    fs.symlinkSync('/etc/hostname', path.join(workspace, 'skills/doc-helper/references/host.md'));
    await engine.reloadSkills();
    server.enqueue({ toolCalls: [{ name: 'list_skill_files', arguments: {} }] }, { text: 'Listed.' });
    await send(engine, '$doc-helper write the intro');
    const listed = messageText(server.chatRequests()[1].messages.find((m) => m.role === 'tool')!);
    expect(listed).toContain('references/style.md');
    expect(listed).not.toContain('host.md');
  });

  it('arguments that are not JSON are called that, with the parser’s words', async () => {
    const { engine } = await setup();
    server.enqueue(
      { toolCalls: [{ name: 'read_skill_file', arguments: '{"path": "references/st' }] },
      { text: 'Recovered.' },
    );
    await send(engine, '$doc-helper write the intro');
    const result = messageText(server.chatRequests()[1].messages.find((m) => m.role === 'tool')!);
    expect(result).toMatch(/Invalid arguments for read_skill_file: not valid JSON/);
  });
});

describe('a tool plain chat does not offer', () => {
  it('is a tool step with the error the model got, like any malformed call (DESIGN §4)', async () => {
    const { engine } = await setup();
    // No skill routed: plain chat offers run_skill alone, and the model calls a skill tool.
    server.enqueue(
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'SKILL.md' } }] },
      { text: 'Recovered.' },
    );
    const turn = await send(engine, 'could you write a guide for my project?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Recovered.' });
    const result = messageText(server.chatRequests()[1].messages.find((m) => m.role === 'tool')!);
    expect(result).toContain('Unknown tool \\"read_skill_file\\". Available here: run_skill.');
    expect(turn.steps.filter((s) => s.kind === 'tool')).toEqual([
      expect.objectContaining({
        name: 'read_skill_file',
        status: 'error',
        error: 'Unknown tool "read_skill_file". Available here: run_skill.',
      }),
    ]);
  });
});

describe('a skill’s declared timeout inside a turn (DESIGN §4 policy)', () => {
  it('stops its model and the script it runs as a timeout, not as the user’s Stop', async () => {
    const { engine, workspace } = await setup();
    writeTree(path.join(workspace, 'skills'), {
      'slow-report/SKILL.md':
        '---\nname: slow-report\ndescription: Builds the slow report.\n---\nRun scripts/slow.sh.\n',
      'slow-report/skill.yaml':
        'spec: { type: instruction }\nexecution_policy: { approval: auto, timeout: 1 }\n',
      'slow-report/scripts/slow.sh': 'echo begin\nsleep 20\n',
    });
    await engine.reloadSkills();
    server.enqueue(
      { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/slow.sh' } }] },
      { text: 'The report could not be built in time.' },
    );
    const turn = await send(engine, '$slow-report build it');
    expect(turn.steps.find((s) => s.kind === 'run')).toMatchObject({ status: 'timeout' });
    const stopped = turn.steps.filter((s) => s.id.startsWith('slow-report:'));
    expect(stopped.map((s) => [s.kind, s.status])).toEqual([
      ['model', 'success'],
      ['tool', 'timeout'],
      ['model', 'timeout'],
    ]);
    expect(stopped[1].error).toMatch(/^Timed out after 1 s, the timeout slow-report declares/);
    expect(JSON.stringify(turn.steps)).not.toContain('Stopped by the user');
  });
});

describe('delegation inside a turn', () => {
  it('the delegated skill’s answer goes to the delegating model, not into the turn’s answer', async () => {
    const { engine } = await setup();
    server.enqueue(
      {
        toolCalls: [
          { name: 'run_skill', arguments: { skill: 'chain-b', task: 'part one' } },
          { name: 'run_skill', arguments: { skill: 'chain-b', task: 'part two' } },
        ],
      },
      { text: 'B-ONE' },
      { text: 'B-TWO' },
      { text: 'A answers from both.' },
    );
    const turn = await send(engine, '$chain-a do it');
    expect(turn.status).toBe('success');
    expect(turn.answer).toBe('A answers from both.');
    const results = server
      .chatRequests()[3]
      .messages.filter((m) => m.role === 'tool')
      .map(messageText);
    expect(results[0]).toContain('B-ONE');
    expect(results[1]).toContain('B-TWO');
    // Each delegation keeps its own steps: two model calls of chain-b, none overwritten.
    const ids = turn.steps.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(turn.steps.filter((s) => s.kind === 'model')).toHaveLength(4);
  });
});
