import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliWithModel } from '../testing/cliBundle';

// A skill whose SKILL.md names a reference by a Chinese file name that was renamed: the model
// answered around the missing file, as it does for `references/handbook.md`, but the reference
// paths were read as ASCII only, so repair said "The run succeeded; there is nothing to repair".
const SKILL_MD =
  '---\nname: team-guide\ndescription: Answers questions from the team guide.\n---\n# 团队指南\n\n先阅读 references/指南.md，然后回答。\n';
const cli = cliWithModel('skilldeck-cli-repair-unicode-', {
  'team-guide/SKILL.md': SKILL_MD,
  'team-guide/skill.yaml': 'spec: { type: instruction }\n',
  'team-guide/references/指南-v2.md': '团队规则：每天十点站会 ☕\n',
});

describe('skilldeck repair: a renamed reference with a Chinese file name', () => {
  it('is found and fixed like an ASCII one, and the replay reads the file', async () => {
    cli.server.enqueue(
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/指南.md' } }] },
      { text: '找不到指南，只能泛泛回答。' },
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/指南-v2.md' } }] },
      { text: '每天十点站会 ☕' },
    );
    const { code, stdout } = await cli.run(['repair', 'team-guide', '规则是什么？', '--json']);
    const report = JSON.parse(stdout) as {
      eligible: boolean;
      reason: string;
      proposals: { error_signature: string; diff: string; replay: { status: string; output: string } }[];
    };
    expect(report.eligible, report.reason).toBe(true);
    expect(code).toBe(0);
    expect(report.proposals).toHaveLength(1);
    const [proposal] = report.proposals;
    expect(proposal.error_signature).toBe('reference_path:references/指南.md');
    expect(proposal.diff).toContain(
      '-先阅读 references/指南.md，然后回答。\n+先阅读 references/指南-v2.md，然后回答。\n',
    );
    expect(proposal.replay).toMatchObject({ status: 'success', output: '每天十点站会 ☕' });
    expect(fs.readFileSync(path.join(cli.skills, 'team-guide', 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
  }, 60_000);
});
