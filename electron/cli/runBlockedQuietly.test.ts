import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';
import { messageText, startModelServer, type ModelServer } from '../testing/modelServer';

// what-users-ask #12, sandboxes that fail opaquely: say exactly what was blocked. A script that
// catches the sandbox's refusal and finishes (a cache it could not write, a fetch that fell back)
// is a success, but the user and the model must hear what the sandbox stopped. Probing the CLI,
// `skilldeck run` printed '✓ … success' with no word of it, and the model's tool result had none.
const root = tempDir('skilldeck-cli-blocked-quietly-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const userHome = path.join(root, 'user');
let server: ModelServer;

const QUIET_WRITE = 'echo "cache" > "$HOME/.notes-cache" 2>/dev/null || true; echo "report ready"';

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
  writeTree(skills, {
    'notes-report/SKILL.md':
      '---\nname: notes-report\ndescription: Builds the notes report.\n---\n# Notes report\n',
    'notes-report/skill.yaml': 'spec: { type: script }\nexecution_policy: { approval: auto }\n',
    'notes-report/scripts/run.sh': `#!/bin/bash\n${QUIET_WRITE}\n`,
    'notes-helper/SKILL.md':
      '---\nname: notes-helper\ndescription: Answers with the notes report.\n---\nRun scripts/report.sh.\n',
    'notes-helper/skill.yaml': 'spec: { type: instruction }\nexecution_policy: { approval: auto }\n',
    'notes-helper/scripts/report.sh': `#!/bin/bash\n${QUIET_WRITE}\n`,
  });
  fs.mkdirSync(userHome, { recursive: true });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const blockedWrite = new RegExp(
  `tried to write ${path.join(userHome, '.notes-cache').replace(/\./g, '\\.')}`,
);

describe('a run that succeeded after the sandbox refused something', () => {
  it('skilldeck run says what was blocked under its success line', () => {
    const result = spawnSync(
      process.execPath,
      [cli, 'run', 'notes-report', 'go', '--no-default-paths', '--skills', skills],
      {
        env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, 'home-run'), HOME: userHome },
        encoding: 'utf8',
        input: '',
      },
    );
    expect(result.stdout).toContain('report ready');
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/✓ notes-report success/);
    expect(result.stderr).toMatch(/blocked by the sandbox/i);
    expect(result.stderr).toMatch(blockedWrite);
  });

  it("the model's tool result says what was blocked", async () => {
    const first = server.chatRequests().length;
    server.enqueue(
      { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/report.sh' } }] },
      { text: 'Done.' },
    );
    const where = {
      cli,
      skills,
      home: path.join(root, 'home-chat'),
      userHome,
      baseURL: server.baseURL,
      apiKey: 'k',
    };
    const { stdout } = await runCliWithModel(where, [
      'chat',
      '$notes-helper build the report',
      '--json',
      '--deny',
    ]);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(turn.status).toBe('success');
    const messages = server.chatRequests()[first + 1].messages;
    const tool = messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(messageText(m)) as Record<string, unknown>)[0];
    expect(tool.status).toBe('success');
    expect(tool.output).toContain('report ready');
    expect(JSON.stringify(tool.blocked)).toMatch(blockedWrite);
  });
});
