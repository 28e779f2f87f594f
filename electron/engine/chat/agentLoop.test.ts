import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../shared/contract';
import { envWithoutModel, isolatedEngines, writeTree } from '../../testing/fixtures';
import { messageText, requestText, startModelServer, type ModelServer } from '../../testing/modelServer';
import { answerWith } from '../execution/testSkills';

const engines = isolatedEngines();
let server: ModelServer;
beforeEach(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
});
afterEach(async () => {
  await engines.cleanup();
  await server.close();
});

const DOC_BODY = 'Always cite the house style guide in references/style.md.';

async function setup() {
  const opened = await engines.open({
    env: { ...envWithoutModel(), OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k', SKILLDECK_MODEL: 'm' },
  });
  const skills = path.join(opened.workspace, 'skills');
  writeTree(skills, {
    'doc-helper/SKILL.md': `---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\n# Doc helper\n\n${DOC_BODY}\nRun scripts/stamp.sh to stamp the page.\n`,
    'doc-helper/references/style.md': 'Use sentence case headings.\n',
    'doc-helper/scripts/stamp.sh': 'echo stamped > out/stamp.txt; echo "STAMP-OK $1"\n',
    // An instruction skill with a helper script says so (DESIGN §2: scripts/ alone makes a script skill).
    'doc-helper/skill.yaml':
      "spec: { type: instruction }\npermissions: { filesystem: { write: ['./out/**'] } }\nexecution_policy: { approval: ask }\n",
    'other-skill/SKILL.md':
      '---\nname: other-skill\ndescription: Bakes bread with sourdough.\n---\n# Other\n\nSECRET-OTHER-BODY knead for ten minutes.\n',
    'chain-a/SKILL.md': '---\nname: chain-a\ndescription: Chain A delegates.\n---\nDelegate to chain-b.\n',
    'chain-b/SKILL.md': '---\nname: chain-b\ndescription: Chain B delegates.\n---\nDelegate to chain-a.\n',
  });
  await opened.engine.reloadSkills();
  return opened;
}

const send = (
  engine: Awaited<ReturnType<typeof setup>>['engine'],
  message: string,
  id?: string,
): Promise<ChatTurn> => engine.chat.send(id, message).done;

describe('the agent loop against a scripted OpenAI-compatible server', () => {
  it('streams a plain answer when no skill matches, with usage', async () => {
    const { engine } = await setup();
    const deltas: string[] = [];
    engine.events.subscribe((name, payload) => {
      if (name === 'chat.delta') deltas.push((payload as { text: string }).text);
    });
    server.enqueue({
      text: ['Hello', ' there', ', friend.'],
      usage: { prompt_tokens: 50, completion_tokens: 4 },
    });
    const turn = await send(engine, 'what a lovely afternoon it is');
    expect(turn).toMatchObject({ status: 'success', answer: 'Hello there, friend.', skill: null });
    expect(turn.usage).toEqual({ input_tokens: 50, output_tokens: 4 });
    expect(deltas).toEqual(['Hello', ' there', ', friend.']);
    // A small catalog is listed whole for the model to choose from; it chose to answer itself.
    const [request] = server.chatRequests();
    expect(request.tools?.map((t) => t.function.name)).toEqual(['run_skill']);
    expect(messageText(request.messages[0])).toContain('Installed skills:\n');
    expect(messageText(request.messages[0])).toContain('- other-skill: Bakes bread with sourdough.');
    expect(engine.execution.list(10)).toHaveLength(0);
    const event = engine.routing.activityGet(turn.route.route_id);
    expect(event.result).toMatchObject({ tokens_in: 50, tokens_out: 4, status: 'success' });
  });

  it('runs an instruction skill: reads a reference, runs an approved script, answers; only its body is sent', async () => {
    const { engine } = await setup();
    answerWith(engine, () => 'allow_once');
    server.enqueue(
      // A bare name, as models often write it, means the file in references/.
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'style.md' } }] },
      {
        text: 'Stamping.',
        toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/stamp.sh', args: ['v1'] } }],
      },
      { text: 'Done: the page is stamped.' },
    );
    const turn = await send(engine, '$doc-helper write the intro page');
    expect(turn.status).toBe('success');
    expect(turn.skill).toBe('doc-helper');
    expect(turn.answer).toContain('Done: the page is stamped.');
    // The script's stdout went back to the model as a tool result, not into the answer.
    expect(turn.answer).not.toContain('STAMP-OK');
    const toolStep = turn.steps.find((s) => s.name === 'run_skill_script')!;
    expect(toolStep.answer_offset).toBe('Stamping.'.length);
    const requests = server.chatRequests();
    expect(requests).toHaveLength(3);
    const first = requestText(requests[0]);
    expect(first).toContain(DOC_BODY);
    expect(first).not.toContain('SECRET-OTHER-BODY');
    expect(first).not.toContain('Bakes bread');
    expect(requests[0].tools?.map((t) => t.function.name).sort()).toEqual([
      'list_skill_files',
      'read_skill_file',
      'run_skill',
      'run_skill_script',
    ]);
    // Plain JSON Schema objects: no `$schema` draft URI, which some OpenAI-compatible servers
    // (Gemini's among them) refuse in a function's parameters.
    for (const t of requests[0].tools ?? []) {
      expect(t.function.parameters, t.function.name).toMatchObject({ type: 'object' });
      expect(t.function.parameters, t.function.name).not.toHaveProperty('$schema');
    }
    const toolMessages = (i: number) =>
      requests[i].messages.filter((m) => m.role === 'tool').map(messageText);
    expect(toolMessages(1)[0]).toContain('Use sentence case headings.');
    expect(toolMessages(2)[1]).toContain('STAMP-OK v1');
    const kinds = turn.steps.map((s) => `${s.kind}:${s.name}:${s.status}`);
    expect(kinds).toContain('tool:read_skill_file:success');
    expect(kinds).toContain('tool:run_skill_script:success');
    expect(kinds).toContain('approval:doc-helper:allowed');
    expect(kinds).toContain('run:doc-helper:success');
    // The run has no command of its own (the model followed the skill), yet the script it ran is kept.
    const run = engine.execution.get(turn.steps.find((s) => s.kind === 'run')!.run_id!).result!;
    expect(run.command).toEqual([]);
    expect(run.scripts).toEqual([
      {
        skill: 'doc-helper',
        script: 'scripts/stamp.sh',
        command: [expect.stringMatching(/bash$/), expect.stringMatching(/scripts\/stamp\.sh$/), 'v1'],
        sandbox: run.sandbox,
        status: 'success',
        exit_code: 0,
        duration_ms: expect.any(Number),
        files: [
          {
            path: 'out/stamp.txt',
            abs: path.join(engine.info.home, 'runs', run.run_id, 'work', 'out', 'stamp.txt'),
            size: 8,
          },
        ],
      },
    ]);
    // What the script wrote is the run's too (as a script run's own files are), and `run --json` says so.
    expect(run.files.map((f) => f.path)).toEqual(['out/stamp.txt']);
    expect(fs.readFileSync(run.files[0].abs, 'utf8')).toBe('stamped\n');
    expect(run.timeline.find((t) => t.state === 'running')?.script).toBe('scripts/stamp.sh');
    expect(run.sandbox).not.toBe('none');
    expect(turn.steps.find((s) => s.kind === 'run')!.sandbox).toBe(run.sandbox);
  });

  it('lets the model follow a skill whose only script is undeclared; outside a chat it runs directly', async () => {
    const { engine, workspace } = await setup();
    // Agent Skills style: SKILL.md says how to call the script; no skill.yaml, no entrypoint.
    writeTree(path.join(workspace, 'skills'), {
      'word-count/SKILL.md':
        '---\nname: word-count\ndescription: Counts the words of a phrase.\n---\n# Word count\n\nRun `scripts/count.sh WORD…` with the words as arguments.\n',
      'word-count/scripts/count.sh': 'echo "WORDS=$#"\n',
    });
    await engine.reloadSkills();
    const { requests: asked } = answerWith(engine, () => 'allow_once');
    server.enqueue(
      {
        toolCalls: [
          {
            name: 'run_skill_script',
            // As models often write it: a command line; the words after the file come first.
            arguments: { script: 'bash scripts/count.sh red', args: ['green', 'blue'] },
          },
        ],
      },
      { text: 'Three words.' },
    );
    const turn = await send(engine, '$word-count red green blue');
    expect(turn).toMatchObject({ status: 'success', skill: 'word-count', answer: 'Three words.' });
    expect(asked.map((r) => r.command_line)).toEqual([expect.stringMatching(/count\.sh red green blue$/)]);
    const requests = server.chatRequests();
    expect(requests).toHaveLength(2);
    expect(requestText(requests[0])).toContain('Run `scripts/count.sh WORD…`');
    expect(requests[1].messages.filter((m) => m.role === 'tool').map(messageText)[0]).toContain('WORDS=3');
    // `skilldeck run` and the Run tab: the script itself, no model asked.
    const id = engine.skills.list().skills.find((s) => s.name === 'word-count')!.id;
    const direct = await engine.execution.start({ id, task: 'count' }).done;
    expect(direct).toMatchObject({ status: 'success', output: 'WORDS=0\n' });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('tells the model when a script is denied, and the script does not run', async () => {
    const { engine, home } = await setup();
    answerWith(engine, () => 'deny');
    server.enqueue(
      { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/stamp.sh' } }] },
      { text: 'I could not stamp it: you denied the script.' },
    );
    const turn = await send(engine, '$doc-helper stamp the page');
    const toolResult = messageText(server.chatRequests()[1].messages.find((m) => m.role === 'tool')!);
    expect(toolResult).toContain('"status":"denied"');
    expect(turn.steps.find((s) => s.kind === 'tool')?.status).toBe('denied');
    // Nothing ran, and the run lists nothing; its card names no sandbox ("no sandbox" would read
    // as "ran without one").
    const runStep = turn.steps.find((s) => s.kind === 'run')!;
    expect(engine.execution.get(runStep.run_id!).result!.scripts).toBeUndefined();
    expect(runStep.sandbox).toBeUndefined();
    const runs = fs.readdirSync(path.join(home, 'runs'));
    for (const run of runs)
      expect(fs.existsSync(path.join(home, 'runs', run, 'work', 'out', 'stamp.txt'))).toBe(false);
    expect(turn.status).toBe('success');
  });

  it('reports malformed and unknown tool calls back to the model and goes on', async () => {
    const { engine } = await setup();
    server.enqueue(
      {
        toolCalls: [
          { name: 'read_skill_file', arguments: '{"path":' },
          { name: 'delete_everything', arguments: {} },
          { name: 'read_skill_file', arguments: { path: '../../etc/passwd' } },
        ],
      },
      { text: 'Recovered.' },
    );
    const turn = await send(engine, '$doc-helper hello');
    expect(turn).toMatchObject({ status: 'success' });
    expect(turn.answer).toContain('Recovered.');
    const results = server
      .chatRequests()[1]
      .messages.filter((m) => m.role === 'tool')
      .map(messageText);
    expect(results).toHaveLength(3);
    expect(results[0]).toMatch(/Invalid arguments for read_skill_file/);
    expect(results[1]).toMatch(/Unknown tool \\?"delete_everything\\?"/);
    expect(results[2]).toMatch(/leaves the skill folder/);
  });

  it('delegates with run_skill and refuses a cycle', async () => {
    const { engine } = await setup();
    server.enqueue(
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'chain-b', task: 'part two' } }] },
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'chain-a', task: 'back again' } }] },
      { text: 'B refused the cycle.' },
      { text: 'A got B’s answer.' },
    );
    const turn = await send(engine, '$chain-a do it');
    expect(turn.status).toBe('success');
    const requests = server.chatRequests();
    expect(requestText(requests[1])).toContain('Delegate to chain-a.');
    const cycle = messageText(requests[2].messages.find((m) => m.role === 'tool')!);
    expect(cycle).toMatch(/Refused: a delegation cycle \(chain-a → chain-b → chain-a\)/);
    const back = messageText(requests[3].messages.find((m) => m.role === 'tool')!);
    expect(back).toContain('B refused the cycle.');
  });

  it('says the model did not answer when it refused before a word streamed', async () => {
    const { engine } = await setup();
    server.enqueue({ error: { status: 401, message: 'Incorrect API key provided.' } });
    const turn = await send(engine, 'tell me a story about nothing');
    expect(turn.status).toBe('error');
    expect(turn.answer).toBe('');
    expect(turn.error).toMatch(/^The model did not answer: .*API key.*[^.]\.$/);
  });

  it('ends the turn with a clear error when the stream drops, keeps what streamed and the conversation', async () => {
    const { engine } = await setup();
    server.enqueue({ text: ['one ', 'two ', 'three ', 'four'], dropAfter: 2 });
    const turn = await send(engine, 'tell me a story about nothing');
    expect(turn.status).toBe('error');
    expect(turn.answer).toBe('one two ');
    expect(turn.error).toMatch(/broke off/);
    server.enqueue({ text: 'Second answer.' });
    const next = await send(engine, 'and another one', turn.conversation_id);
    expect(next.status).toBe('success');
    expect(engine.chat.get(turn.conversation_id).history.map((t) => t.status)).toEqual(['error', 'success']);
    // The second request carries the conversation so far.
    expect(requestText(server.chatRequests()[1])).toContain('tell me a story about nothing');
  });

  it('says what a server’s error event in the middle of the stream says, and keeps what streamed', async () => {
    const { engine } = await setup();
    server.enqueue({
      text: ['one ', 'two ', 'three'],
      errorAfter: { chunks: 2, message: 'The engine is overloaded mid-stream' },
    });
    const turn = await send(engine, 'tell me a story about nothing');
    expect(turn.status).toBe('error');
    expect(turn.answer).toBe('one two ');
    expect(turn.error).toContain('The engine is overloaded mid-stream');
    expect(turn.error).not.toContain('[object Object]');
  });

  it('shows a turn under way in chat.get, with what streamed so far', async () => {
    const { engine } = await setup();
    server.enqueue({ text: ['slow ', 'and ', 'steady'], delayMs: 150 });
    let seen = '';
    const sent = engine.chat.send(undefined, 'tell me something slowly');
    engine.events.subscribe((name, payload) => {
      if (name === 'chat.delta' && !seen)
        seen = engine.chat.get(sent.conversation_id).history.at(-1)?.answer ?? '';
      void payload;
    });
    const turn = await sent.done;
    expect(seen).toBe('slow ');
    expect(turn.status).toBe('success');
    expect(engine.chat.get(sent.conversation_id).history.map((t) => t.turn_id)).toEqual([turn.turn_id]);
  });
});

describe('plain chat offers the model the skills the router came close to', () => {
  it('offers the model no skill when the message asks for none', async () => {
    const { engine } = await setup();
    server.enqueue({ text: 'A guide starts with who it is for.' });
    const turn = await send(engine, 'without using any skill, could you write a guide for my project?');
    expect(turn.route.plan).toMatchObject({ primary: null, no_skill: true });
    expect(turn).toMatchObject({
      status: 'success',
      skill: null,
      answer: 'A guide starts with who it is for.',
    });
    const [request] = server.chatRequests();
    expect(request.tools ?? []).toEqual([]);
    expect(messageText(request.messages[0])).not.toContain('doc-helper');
    expect(engine.execution.list(10)).toHaveLength(0);
  });

  it('runs the one the model picks with run_skill and answers from its result, once', async () => {
    const { engine } = await setup();
    server.enqueue(
      // The router kept doc-helper under T for this wording; the model sees it and picks it.
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'doc-helper', task: 'Draft a guide.' } }] },
      // doc-helper's own instruction run.
      { text: 'Guide drafted in the house style.' },
      { text: 'Here it is: the guide is drafted in your house style.' },
    );
    const turn = await send(engine, 'could you write a guide for my project?');
    expect(turn.route.plan.primary).toBeNull();
    expect(turn).toMatchObject({
      status: 'success',
      skill: 'doc-helper',
      answer: 'Here it is: the guide is drafted in your house style.',
    });
    const [offer, skillRun, answer] = server.chatRequests();
    expect(offer.tools?.map((t) => t.function.name)).toEqual(['run_skill']);
    const system = messageText(offer.messages[0]);
    // The closest first; the rest of this small catalog below, by name and description only.
    expect(system).toContain(
      'these installed skills came closest:\n- doc-helper: Writes documentation in the house style.\nOther installed skills:\n',
    );
    expect(system).toContain('- other-skill: Bakes bread with sourdough.');
    expect(requestText(offer)).not.toContain('SECRET-OTHER-BODY');
    // The skill ran as itself (its body, its four tools) on the task the model gave it.
    expect(messageText(skillRun.messages[0])).toContain(DOC_BODY);
    expect(requestText(skillRun)).toContain('Draft a guide.');
    // Its answer went back to the model as the tool result, not to the user twice.
    const result = messageText(answer.messages.find((m) => m.role === 'tool')!);
    expect(result).toContain('Guide drafted in the house style.');
    const card = turn.steps.find((s) => s.kind === 'run')!;
    expect(card).toMatchObject({ name: 'doc-helper', status: 'success' });
    expect(engine.execution.get(card.run_id!).summary).toMatchObject({
      skill: 'doc-helper',
      status: 'success',
    });
    expect(turn.steps.find((s) => s.kind === 'tool' && s.name === 'run_skill')).toMatchObject({
      status: 'success',
    });
    // The route records who chose: no primary, and the model ran doc-helper (the turn's copy
    // and the route log agree), with the turn's tokens.
    const docHelper = turn.route.candidates.find((c) => c.name === 'doc-helper')!;
    const outcome = {
      status: 'success',
      skill_id: docHelper.id,
      chosen_by_model: true,
      fallback_used: false,
    };
    expect(turn.route.result).toMatchObject(outcome);
    expect(turn.route.result?.tokens_in).toBe(turn.usage.input_tokens);
    const [logged] = engine.routing.activity(1).events;
    expect(logged.route_id).toBe(turn.route.route_id);
    expect(logged.plan.primary).toBeNull();
    expect(logged.result).toMatchObject(outcome);
  });

  it('asks plainly when the model is served without tool support', async () => {
    const { engine } = await setup();
    server.enqueue(
      { error: { status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' } },
      { text: 'A README has a title, a summary and how to install.' },
    );
    const turn = await send(engine, 'could you write a guide for my project?');
    expect(turn).toMatchObject({
      status: 'success',
      answer: 'A README has a title, a summary and how to install.',
    });
    const [offer, plainAsk] = server.chatRequests();
    expect(offer.tools?.map((t) => t.function.name)).toEqual(['run_skill']);
    expect(plainAsk.tools).toBeUndefined();
    // Remembered for the session: the next message is asked plainly at once, in one request.
    server.enqueue({ text: 'Add a licence section too.' });
    const next = await send(engine, 'could you write a guide for my project?', turn.conversation_id);
    expect(next).toMatchObject({ status: 'success', answer: 'Add a licence section too.' });
    expect(server.chatRequests()).toHaveLength(3);
    expect(server.chatRequests()[2].tools).toBeUndefined();
  });

  it('runs an installed skill the router did not recall; refuses one that is not installed or only for naming', async () => {
    const { engine } = await setup();
    writeTree(path.join(engine.info.workspace, 'skills'), {
      'named-only/SKILL.md':
        '---\nname: named-only\ndescription: Bakes bread on request.\ndisable-model-invocation: true\n---\n# Named only\n',
    });
    await engine.reloadSkills();
    server.enqueue(
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'sourdough-pro', task: 'bake' } }] },
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'named-only', task: 'bake' } }] },
      // The name in another spelling, as models write it.
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'Other Skill', task: 'Bake a loaf.' } }] },
      // other-skill's own instruction run, then the answer from its result.
      { text: 'Loaf baked.' },
      { text: 'Your loaf is baked.' },
    );
    const turn = await send(engine, 'could you write a guide for my project?');
    expect(turn).toMatchObject({ status: 'success', skill: 'other-skill', answer: 'Your loaf is baked.' });
    const requests = server.chatRequests();
    // Neither a skill that is not installed nor one that only runs when the user names it.
    expect(messageText(requests[0].messages[0])).not.toContain('named-only');
    const refusals = requests
      .slice(1, 3)
      .map((r) => messageText(r.messages.filter((m) => m.role === 'tool').at(-1)!));
    for (const refused of refusals)
      expect(refused).toContain('run_skill takes { skill, task } with one of: doc-helper, ');
    expect(refusals.join('\n')).not.toContain('named-only,');
    expect(messageText(requests[3].messages[0])).toContain('SECRET-OTHER-BODY');
    expect(turn.steps.filter((s) => s.kind === 'run').map((s) => s.name)).toEqual(['other-skill']);
    expect(turn.route.result).toMatchObject({ status: 'success', chosen_by_model: true });
  });

  it('lists only the closest skills of a large catalog', async () => {
    const { engine } = await setup();
    writeTree(
      path.join(engine.info.workspace, 'skills'),
      Object.fromEntries(
        // Sixty skills at a full line each: past the eight thousand characters a listing may take.
        Array.from({ length: 60 }, (_v, i) => [
          `filler-${i}/SKILL.md`,
          `---\nname: filler-${i}\ndescription: Tracks parcel number ${i} for the warehouse team, with its route, its depot, its driver, its weight and every scan along the way to its door.\n---\n# Filler\n`,
        ]),
      ),
    );
    await engine.reloadSkills();
    server.enqueue({ text: 'Start with a title and a summary.' });
    const turn = await send(engine, 'could you write a guide for my project?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Start with a title and a summary.' });
    const system = messageText(server.chatRequests()[0].messages[0]);
    expect(system).toContain('- doc-helper: Writes documentation in the house style.');
    expect(system).not.toContain('Other installed skills');
    expect(system).not.toContain('filler-');
  });
});
