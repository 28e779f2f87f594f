import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ChatTurn } from '../../shared/contract';
import { envWithoutModel, isolatedEngines, writeTree } from './fixtures';
import { messageText, startModelServer, type ModelServer } from './modelServer';

/** doc-helper's one reference, as read_skill_file returns it. */
export const STYLE = { path: 'references/style.md', content: 'Use sentence case headings.\n' };

/**
 * A chat against a fresh scripted server per test, with one instruction skill (doc-helper, one
 * reference): the real engine, the real provider code, loopback HTTP. For the tests of what a
 * model's stream may look like on the wire.
 */
export function docHelperChat() {
  const engines = isolatedEngines();
  const state: { server: ModelServer | null } = { server: null };
  beforeEach(async () => {
    state.server = await startModelServer({ apiKey: 'k', models: ['m'] });
  });
  afterEach(async () => {
    await engines.cleanup();
    await state.server?.close();
  });
  const server = (): ModelServer => state.server!;

  async function send(message: string): Promise<ChatTurn> {
    const { engine, workspace } = await engines.open({
      env: {
        ...envWithoutModel(),
        OPENAI_BASE_URL: server().baseURL,
        OPENAI_API_KEY: 'k',
        SKILLDECK_MODEL: 'm',
      },
    });
    writeTree(path.join(workspace, 'skills'), {
      'doc-helper/SKILL.md':
        '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\nRead references/style.md.\n',
      'doc-helper/references/style.md': STYLE.content,
      'doc-helper/skill.yaml': 'spec: { type: instruction }\n',
    });
    await engine.reloadSkills();
    return engine.chat.send(undefined, message).done;
  }

  /** The tool results the model got back in chat request `index`. */
  const toolResults = (index: number) =>
    server()
      .chatRequests()
      .at(index)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(messageText(m)) as Record<string, unknown>);

  return { server, send, toolResults };
}
