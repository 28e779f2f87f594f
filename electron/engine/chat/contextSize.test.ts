import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, envWithoutModel, isolatedEngines, tempDir } from '../../testing/fixtures';
import { requestText, startModelServer, type ModelServer } from '../../testing/modelServer';

// issue 8: what a routed turn sends vs the catalog of every skill that peers inject each turn.
const engines = isolatedEngines();
let server: ModelServer;
const dir = tempDir('skilldeck-context-');

beforeAll(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'], fallback: { text: 'ok' } });
  // The first 100 corpus skills that have a name and a description.
  const root = path.join(corpusDir(), 'skills');
  const found: string[] = [];
  const walk = (d: string, depth: number) => {
    if (found.length >= 100 || depth > 5) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= 100) return;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (
        e.name === 'SKILL.md' &&
        /\nname:\s*\S/.test(fs.readFileSync(p, 'utf8')) &&
        /\ndescription:\s*\S/.test(fs.readFileSync(p, 'utf8'))
      )
        found.push(path.dirname(p));
    }
  };
  walk(root, 0);
  found.forEach((src, i) =>
    fs.cpSync(path.join(src, 'SKILL.md'), path.join(dir, `s${String(i).padStart(3, '0')}`, 'SKILL.md')),
  );
});

afterAll(async () => {
  await engines.cleanup();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('context size of a routed turn (100 skills installed)', () => {
  it('sends only the selected skill, a fraction of the catalog peers send', async () => {
    const { engine } = await engines.open({
      skillDirs: [dir],
      noDefaultPaths: true,
      env: {
        ...envWithoutModel(),
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: 'k',
        SKILLDECK_MODEL: 'm',
      },
    });
    const skills = engine.listSkills().skills.filter((s) => s.routable && s.description);
    expect(skills.length).toBeGreaterThanOrEqual(90);
    const catalog = skills.map((s) => `- ${s.name}: ${s.description}`).join('\n').length;
    const ratios: number[] = [];
    const sent: number[] = [];
    for (const skill of skills.filter((_, i) => i % 10 === 0)) {
      const before = server.chatRequests().length;
      const message = `$${skill.name} help me with this`;
      const turn = await engine.chat.send(undefined, message).done;
      expect(turn.skill).toBe(skill.name);
      const first = server.chatRequests()[before];
      const chars = JSON.stringify(first.messages).length + JSON.stringify(first.tools ?? []).length;
      // Another skill's description never rides along.
      const other = skills.find((s) => s.name !== skill.name && s.description.length > 40)!;
      expect(requestText(first)).not.toContain(other.description);
      sent.push(chars);
      ratios.push(chars / (catalog + message.length));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `context size: routed turn median ${median(sent)} chars (skill body + 4 tool schemas) vs catalog of ${skills.length} names + descriptions ${catalog} chars; median ratio ${median(ratios).toFixed(2)}`,
    );
    expect(median(ratios)).toBeLessThan(1);
  });
});
