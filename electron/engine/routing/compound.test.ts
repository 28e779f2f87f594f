import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import type { RoutingIndex } from './lexicon';
import { withJoins } from './match';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

// CC-CEDICT has no entry for 工作流: it is read as 工作 "work" + 流 "flow". The English compound
// of the two glosses (workflow) is what a skill written in English says.
const SKILLS: Record<string, string> = {
  'automator/SKILL.md': skillMd('automator', 'Build automation workflows that sync apps on a schedule.'),
  'job-board/SKILL.md': skillMd('job-board', 'Search job listings and track work applications.'),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-compound-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});
const routeOf = (query: string) => route(index, query, defaultConfig(), readyContext());

describe('two Chinese words whose glosses make one English word', () => {
  it('offer the compound of their glosses', () => {
    const [work] = analyzeQuery('工作流');
    expect(work.surface).toBe('工作');
    expect(work.joins?.map((j) => j.shown)).toContain('workflow');
  });

  it('reach the skill that uses the compound, both words counting', () => {
    const r = routeOf('帮我搭一个工作流，每天同步');
    expect(r.plan.primary).toBe('automator');
    const evidence = r.candidates.find((c) => c.name === 'automator')!.evidence ?? [];
    expect(evidence).toContainEqual(expect.objectContaining({ kind: 'translation', matched: 'workflow' }));
    expect(r.candidates.find((c) => c.name === 'job-board')?.status ?? 'not recalled').not.toBe('selected');
  });

  it('add nothing when no skill uses the compound', () => {
    // 工作 + 日志 makes "worklog", a word no skill here says.
    const groups = analyzeQuery('整理工作日志');
    expect(groups.some((g) => g.joins?.length)).toBe(true);
    expect(withJoins(index, groups)).toEqual(groups);
    expect(withJoins(index, analyzeQuery('整理工作流'))).not.toEqual(analyzeQuery('整理工作流'));
  });
});
