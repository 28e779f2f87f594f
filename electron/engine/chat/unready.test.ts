import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envWithoutModel, isolatedEngines, writeTree } from '../../testing/fixtures';
import { messageText, startModelServer, type ModelServer } from '../../testing/modelServer';

// A skill that fits a message but whose program is not installed is never selected (DESIGN §3):
// the turn says which skill fits, what it lacks and how to install it, instead of "no skill".
const engines = isolatedEngines();
let server: ModelServer | undefined;
afterEach(async () => {
  await engines.cleanup();
  await server?.close();
  server = undefined;
});

const HUE = {
  'hue-lights/SKILL.md': [
    '---',
    'name: hue-lights',
    'description: Control Philips Hue lights and scenes — dim, brighten, switch rooms on and off.',
    'metadata:',
    '  { "openclaw": { "requires": { "bins": ["hue-cli-not-installed"] },',
    '      "install": [{ "id": "brew", "kind": "brew", "formula": "example/tap/hue-cli",',
    '                    "bins": ["hue-cli-not-installed"], "label": "Install the Hue CLI (brew)" }] } }',
    '---',
    '# Hue lights',
    '',
    'Use `hue-cli-not-installed` to set the brightness of a room.',
    '',
  ].join('\n'),
};

async function open(env: NodeJS.ProcessEnv) {
  const opened = await engines.open({ env });
  writeTree(path.join(opened.workspace, 'skills'), HUE);
  await opened.engine.reloadSkills();
  return opened.engine;
}

describe('a skill that fits but cannot run here', () => {
  it('without a model, the answer names the skill, what it lacks and how to install it', async () => {
    const engine = await open(envWithoutModel());
    const turn = await engine.chat.send(undefined, 'dim the hue lights in the living room').done;
    const hue = turn.route.candidates.find((c) => c.name === 'hue-lights')!;
    expect(hue).toMatchObject({ status: 'unavailable', missing: ['bin:hue-cli-not-installed'] });
    expect(hue.score).toBeGreaterThanOrEqual(turn.route.threshold);
    expect(hue.install).toEqual([
      { label: 'Install the Hue CLI (brew)', command: 'brew install example/tap/hue-cli' },
    ]);
    expect(turn.route.plan.primary).toBeNull();
    expect(turn.route.plan.routing_reason).toMatch(
      /^hue-lights fits \(score 0\.\d\d\) but cannot run here: missing bin:hue-cli-not-installed; plain chat\.$/,
    );
    expect(turn.status).toBe('no_model');
    expect(turn.answer).toContain('**hue-lights** fits this message, but it cannot run on this machine');
    expect(turn.answer).toContain('the program `hue-cli-not-installed` (not on PATH)');
    expect(turn.answer).toContain('`brew install example/tap/hue-cli`');
    expect(turn.answer).not.toContain('No skill matched');

    // The skill's Availability view and a run of it say the same.
    const reason = engine.install.diagnose(hue.id).reasons.find((r) => r.code === 'missing-bin')!;
    expect(reason.install).toEqual([
      { label: 'Install the Hue CLI (brew)', command: 'brew install example/tap/hue-cli' },
    ]);
    const run = await engine.execution.start({ id: hue.id, task: 'dim the lights' }).done;
    expect(run.status).toBe('failure');
    expect(run.error).toBe(
      'Missing prerequisite for hue-lights: not on PATH: hue-cli-not-installed. To install it: brew install example/tap/hue-cli',
    );

    // A message no skill fits still says so.
    const other = await engine.chat.send(undefined, 'what a lovely afternoon it is').done;
    expect(other.answer).toContain('No skill matched');
  });

  it('with a model, plain chat is told, in the same one request, so the model can say so', async () => {
    server = await startModelServer({ apiKey: 'k', models: ['m'] });
    const engine = await open({
      ...envWithoutModel(),
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'k',
      SKILLDECK_MODEL: 'm',
    });
    server.enqueue({ text: 'Install the Hue CLI first: brew install example/tap/hue-cli.' });
    const before = server.chatRequests().length;
    const turn = await engine.chat.send(undefined, 'dim the hue lights in the living room').done;
    expect(turn.status).toBe('success');
    expect(turn.answer).toBe('Install the Hue CLI first: brew install example/tap/hue-cli.');
    expect(server.chatRequests().length).toBe(before + 1);
    const system = messageText(
      server
        .chatRequests()
        .at(-1)!
        .messages.find((m) => m.role === 'system')!,
    );
    expect(system).toContain('"hue-lights" fits this request but cannot run on this machine');
    expect(system).toContain('`brew install example/tap/hue-cli`');
    // It is not offered: the model cannot run what this machine cannot.
    expect(system).not.toMatch(/^- hue-lights:/m);
  });
});
