import { expect, it, vi } from 'vitest';
import type { ContractHarness } from './contractSuite';
import { startModelServer } from './modelServer';

/** The chat and model-settings part of the contract suite (contractSuite.ts runs it on every transport). */
export function chatAndModelContract(setup: () => ContractHarness) {
  it('chats without a model: the turn is routed, says what to configure, and is kept', async () => {
    const { client, transport } = setup();
    const finished = new Promise<{ turn_id: string; status: string; answer: string }>((resolve) => {
      const off = client.on('chat.turnFinished', (turn) => {
        off();
        resolve(turn);
      });
    });
    const sent = await client.invoke('chat.send', { message: 'what a lovely afternoon' });
    const turn = await finished;
    expect(turn).toMatchObject({ turn_id: sent.turn_id, status: 'no_model' });
    expect(turn.answer).toMatch(/Settings → Model/);
    const conversation = await client.invoke('chat.get', { id: sent.conversation_id });
    expect(conversation.history.map((t) => t.turn_id)).toEqual([sent.turn_id]);
    expect(conversation.title).toBe('what a lovely afternoon');
    const listed = await client.invoke('chat.list', { query: 'lovely' });
    expect(listed.conversations.map((c) => c.id)).toContain(sent.conversation_id);
    const blank = await transport.request('chat.send', { message: '   ' });
    expect(blank).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(await client.invoke('chat.delete', { id: sent.conversation_id })).toEqual({ deleted: true });
  });

  it('configures a model, takes a key it never gives back, tests the connection, refuses bad input', async () => {
    const { client, transport } = setup();
    const key = 'sk-contract-key-0123456789';
    const server = await startModelServer({ apiKey: key, models: ['m-b', 'm-a'] });
    const changes: unknown[] = [];
    const off = client.on('models.changed', (payload) => changes.push(payload));
    try {
      const initial = await client.invoke('models.get', {});
      expect(initial).toMatchObject({ source: null, effective: null, hasKey: false, keySource: null });
      expect(initial.problem).toMatch(/^No model configured/);
      const target = { provider: 'openai-compatible', baseURL: server.baseURL, model: 'm-b' } as const;
      const updated = await client.invoke('models.update', { ...target, baseURL: `${server.baseURL}/` });
      expect(updated).toMatchObject({
        source: 'settings',
        effective: target,
        hasKey: false,
        problem: null,
      });
      expect((await client.invoke('settings.get', {})).model).toMatchObject(target);
      expect(await client.invoke('models.test', {})).toMatchObject({ ok: false, status: 'unauthorized' });
      const stored = await client.invoke('models.setKey', { key });
      expect(stored).toMatchObject({ hasKey: true, keySource: 'stored', keyStorage: 'file' });
      const tested = await client.invoke('models.test', {});
      expect(tested).toMatchObject({ ok: true, status: 'connected', models: 2, modelAvailable: true });
      expect(await client.invoke('models.list', {})).toEqual({
        ok: true,
        models: ['m-a', 'm-b'],
        message: null,
      });
      expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
      for (const [method, input] of [
        ['models.update', { provider: 'bogus' }],
        ['models.update', { baseURL: 'ftp://example.com' }],
        ['models.update', { apiKey: key }],
        ['models.setKey', { key: '' }],
        ['models.setKey', { key: 'two words' }],
        ['models.get', { key }],
      ] as const) {
        expect(await transport.request(method, input)).toMatchObject({
          ok: false,
          error: { code: 'invalid_params' },
        });
      }
      const cleared = await client.invoke('models.clearKey', {});
      expect(cleared).toMatchObject({ hasKey: false, keySource: null });
      await vi.waitFor(() => expect(changes.length).toBeGreaterThanOrEqual(3));
      expect(changes.at(-1)).toEqual(cleared);
      const everything = JSON.stringify([initial, updated, stored, tested, cleared, changes]);
      expect(everything).not.toContain(key);
    } finally {
      off();
      await client.invoke('models.update', { provider: null, baseURL: null, model: null });
      await server.close();
    }
  });
}
