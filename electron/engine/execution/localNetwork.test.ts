import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// A skill's own `approval: auto` covers a network allow-list of remote hosts. A list naming this
// machine (localhost, 127.0.0.1) or the local network reaches what listens there: a model server
// with no key (Ollama), a database trusting local connections, SkillDeck's browser host. Probing
// the CLI, `network: { outbound: ['example.com', 'localhost'] }` with auto reached a loopback
// server unasked; such a list asks, as `network: true` does.
const engines = isolatedEngines();
const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  await engines.cleanup();
});

async function localService(): Promise<number> {
  const server = http.createServer((_req, res) => res.end('local-service-secret'));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

async function autoSkillReaching(hosts: string[], port: number) {
  const opened = await engines.open();
  const skills = path.join(opened.workspace, 'skills');
  const id = scriptSkill(
    skills,
    'status-board',
    `curl -s --max-time 5 "http://${hosts.at(-1)}:${port}/" || echo "not reached"`,
    [
      `permissions: { network: { outbound: ${JSON.stringify(hosts)} } }`,
      'execution_policy: { approval: auto }',
    ],
  );
  await opened.engine.reloadSkills();
  return { ...opened, id };
}

describe('approval: auto and a network list naming this machine or its network (real bwrap runs)', () => {
  it.each([['localhost'], ['127.0.0.1']])(
    'asks for %s, and a deny leaves the local service unreached',
    async (host) => {
      const port = await localService();
      const { engine, id } = await autoSkillReaching(['example.com', host], port);
      const { requests } = answerWith(engine, () => 'deny');
      const result = await engine.execution.start({ id, task: 'go' }).done;
      expect(requests).toHaveLength(1);
      expect(requests[0].reasons.join(' ')).toContain(`reaches ${host}`);
      expect(requests[0].reasons.join(' ')).toMatch(/this machine or its local network/);
      expect(result.status).toBe('denied');
      expect(result.output).not.toContain('local-service-secret');
    },
  );

  it('still covers a list of remote hosts unasked', async () => {
    const { engine, id } = await autoSkillReaching(['example.com', 'api.example.org'], 9);
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toEqual([]);
    expect(result.sandbox).toBe('bwrap');
  });

  it('reaches the local service once the user allows it', async () => {
    const port = await localService();
    const { engine, id } = await autoSkillReaching(['localhost'], port);
    answerWith(engine, () => 'allow_once');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(result.output).toContain('local-service-secret');
  });
});
