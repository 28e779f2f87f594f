import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf, tempDir, writeTree } from '../../testing/fixtures';
import type { AttemptEnv } from './attempt';
import { callTool, capOutput, READ_CAP_CHARS, type ToolContext } from './tools';

// The arguments of a model's tool call as the model loop hands them over: an object the SDK
// parsed, or a string, which is the arguments' text exactly as the model sent it.
const root = tempDir('skilldeck-tools-');
let ctx: ToolContext;

beforeAll(async () => {
  writeTree(root, {
    'doc-helper/SKILL.md':
      '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\nRead references/style.md.\n',
    'doc-helper/references/style.md': 'Use sentence case headings.\n',
  });
  const catalog = await catalogOf([root]);
  ctx = {
    skill: await catalog.get(path.join(root, 'doc-helper')),
    task: 'which heading style?',
    runId: 'r1',
    depth: 0,
    chain: ['doc-helper'],
    // Reading a file runs nothing: no sandbox, no approvals, no delegation.
    env: {} as AttemptEnv,
    delegate: () => Promise.reject(new Error('read_skill_file delegates nothing')),
  };
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const read = (args: unknown) => callTool('read_skill_file', args, ctx);
const STYLE = { path: 'references/style.md', content: 'Use sentence case headings.\n' };

describe('tool-call arguments that are no JSON object', () => {
  it('a JSON string is called JSON that is not an object, quoting it, never "not valid JSON"', async () => {
    const out = await read('"references/style.md"');
    expect(out.status).toBe('error');
    expect(out.error).toMatch(
      /^Invalid arguments for read_skill_file: they are JSON, but a string \("references\/style\.md"\), not an object\. Send one JSON object matching \{.*"path".*\}, e\.g\. \{"path": "references\/style\.md"\}\.$/,
    );
    expect(out.error).not.toContain('not valid JSON');
  });

  it('a JSON object encoded once more as a string is taken as the object it holds', async () => {
    expect(await read(JSON.stringify(JSON.stringify({ path: 'references/style.md' })))).toEqual(STYLE);
    expect(await read(JSON.stringify({ path: 'references/style.md' }))).toEqual(STYLE);
    expect(await read({ path: 'references/style.md' })).toEqual(STYLE);
  });

  it('only one layer is taken off: an object encoded three times is a string', async () => {
    const thrice = JSON.stringify(JSON.stringify(JSON.stringify({ path: 'references/style.md' })));
    expect((await read(thrice)).error).toMatch(/they are JSON, but a string \(.*\), not an object/);
  });

  it('a string holding other JSON (an array, a number) is a string, not what it holds', async () => {
    expect((await read(JSON.stringify('["references/style.md"]'))).error).toMatch(
      /they are JSON, but a string \("\[\\"references\/style\.md\\"\]"\), not an object/,
    );
    expect((await read('"42"')).error).toMatch(/they are JSON, but a string \("42"\), not an object/);
  });

  it('other JSON that is no object says what it is', async () => {
    expect((await read(['references/style.md'])).error).toMatch(/they are JSON, but an array, not an object/);
    expect((await read(42)).error).toMatch(/they are JSON, but a number, not an object/);
    expect((await read('true')).error).toMatch(/they are JSON, but a boolean, not an object/);
  });

  it('text that is no JSON at all is still called that, with the parser’s words', async () => {
    expect((await read('{"path": "references/st')).error).toMatch(
      /^Invalid arguments for read_skill_file: not valid JSON \(.+\)\. Send one JSON object matching/,
    );
    expect((await read('references/style.md')).error).toMatch(/not valid JSON/);
  });

  it('a long string is quoted cut, so the message stays short', async () => {
    const out = await read(JSON.stringify('x'.repeat(5000)));
    expect(out.error).toMatch(/a string \("x{60,100}…"\)/);
    expect(String(out.error).length).toBeLessThan(600);
  });
});

describe('run_skill_script with a file the skill does not have', () => {
  it('runs nothing and names the skill’s scripts, so the next call can hit one', async () => {
    writeTree(root, { 'doc-helper/scripts/render.py': 'print(1)\n', 'doc-helper/scripts/lint.sh': 'true\n' });
    const catalog = await catalogOf([root]);
    const skill = await catalog.get(path.join(root, 'doc-helper'));
    const out = await callTool('run_skill_script', { script: 'scripts/build.py' }, { ...ctx, skill });
    expect(out).toEqual({
      status: 'failure',
      error: 'doc-helper has no file scripts/build.py. Its scripts: scripts/lint.sh, scripts/render.py.',
    });
  });
});

describe('a cut never splits a character', () => {
  // Half of a surrogate pair is no character: a server that decodes the request to UTF-8 (Python's
  // json, then .encode()) refuses the whole request with it.
  const HALF = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it('read_skill_file cuts before an emoji that straddles the limit', async () => {
    const dir = tempDir('skilldeck-emoji-');
    writeTree(dir, {
      'emoji-doc/SKILL.md':
        '---\nname: emoji-doc\ndescription: Reads a long file.\n---\nRead references/long.md.\n',
      'emoji-doc/references/long.md': `${'a'.repeat(READ_CAP_CHARS - 1)}${'😀'.repeat(20)}`,
    });
    const catalog = await catalogOf([dir]);
    const skill = await catalog.get(path.join(dir, 'emoji-doc'));
    const out = (await callTool('read_skill_file', { path: 'references/long.md' }, { ...ctx, skill })) as {
      content: string;
      note?: string;
    };
    expect(out.note).toMatch(/cut at/);
    expect(out.content.length).toBe(READ_CAP_CHARS - 1);
    expect(HALF.test(out.content)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a script's long output keeps whole characters at both cuts", () => {
    const output = `x${'😀'.repeat(READ_CAP_CHARS)}`;
    const capped = capOutput(output);
    expect(capped).toMatch(/cut at/);
    expect(HALF.test(capped)).toBe(false);
  });
});
