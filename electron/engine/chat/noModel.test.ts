import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

describe('chat without a model', () => {
  it('an instruction skill ends as no_model, saying what to configure; a direct skill still answers', async () => {
    const { engine } = await engines.open({ bundledDir: path.resolve(__dirname, '../../../skills') });
    const instruction = await engine.chat.send(undefined, '$code-review look at this diff').done;
    expect(instruction.status).toBe('no_model');
    expect(instruction.skill).toBe('code-review');
    expect(instruction.answer).toMatch(
      /code-review is an instruction skill: a model follows its steps\. No model configured/,
    );
    const direct = await engine.chat.send(undefined, '$meeting-notes weekly sync').done;
    expect(direct.status).toBe('success');
    expect(direct.answer).toContain('## Agenda');
  });
});
