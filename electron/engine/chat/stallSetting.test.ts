import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelSettingsPatch } from '../../../shared/contract';
import { envWithoutModel, isolatedEngines } from '../../testing/fixtures';
import { startModelServer, type ModelServer } from '../../testing/modelServer';

// Settings → Model → the stall limit: how long a model may send nothing before its step ends
// (a reasoning model may think silently for minutes). The real engine, settings.json on disk and
// the scripted server on loopback.
const engines = isolatedEngines();
let server: ModelServer;
beforeEach(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
});
afterEach(async () => {
  await engines.cleanup();
  await server.close();
});

const modelEnv = (extra: NodeJS.ProcessEnv = {}) => ({
  env: {
    ...envWithoutModel(),
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'k',
    SKILLDECK_MODEL: 'm',
    ...extra,
  },
});

describe('the stall limit setting', () => {
  it('is 90 s by default, persists in settings.json and is read back by the next start', async () => {
    const { engine, home } = await engines.open(modelEnv());
    expect(engine.models.status().settings.stallSeconds).toBe(90);
    expect(engine.models.update({ stallSeconds: 240 }).settings.stallSeconds).toBe(240);
    const file = JSON.parse(fs.readFileSync(path.join(home, 'settings.json'), 'utf8')) as {
      model: { stallSeconds: number };
    };
    expect(file.model.stallSeconds).toBe(240);
    await engine.close();
    const { engine: again } = await engines.open({ ...modelEnv(), home });
    expect(again.models.status().settings.stallSeconds).toBe(240);
  });

  it('takes whole seconds from 10 to 300, and says so otherwise', () => {
    for (const stallSeconds of [10, 90, 300])
      expect(ModelSettingsPatch.safeParse({ stallSeconds }).success).toBe(true);
    for (const bad of [0, 9, 301, 12.5, -5]) {
      const parsed = ModelSettingsPatch.safeParse({ stallSeconds: bad });
      expect(parsed.success, String(bad)).toBe(false);
      expect(parsed.error?.issues[0].message).toMatch(/^Enter whole seconds from 10 to 300/);
    }
  });

  it('the model loop waits that long and no longer', async () => {
    const { engine } = await engines.open(modelEnv());
    engine.models.update({ stallSeconds: 10 });
    server.enqueue({ text: ['Thinking done.'], delayMs: 60_000 });
    const started = Date.now();
    const turn = await engine.chat.send(undefined, 'hello, how are you today?').done;
    expect(turn.steps).toContainEqual(
      expect.objectContaining({
        kind: 'model',
        status: 'timeout',
        error: 'The model sent nothing for 10 s.',
      }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 40_000);

  it('SKILLDECK_MODEL_STALL_SECONDS still wins over it, and the status says so', async () => {
    const { engine } = await engines.open(modelEnv({ SKILLDECK_MODEL_STALL_SECONDS: '1' }));
    engine.models.update({ stallSeconds: 200 });
    expect(engine.models.status().env.stallSeconds).toBe(1);
    server.enqueue({ text: ['Thinking done.'], delayMs: 60_000 });
    const turn = await engine.chat.send(undefined, 'hello, how are you today?').done;
    expect(turn.steps).toContainEqual(
      expect.objectContaining({ kind: 'model', status: 'timeout', error: 'The model sent nothing for 1 s.' }),
    );
  }, 20_000);
});
