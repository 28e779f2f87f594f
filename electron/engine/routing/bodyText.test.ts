import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import type { RoutingIndex } from './lexicon';
import { matchQuery } from './match';
import { route } from './router';
import { terms } from './text';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const md = skillMd;
/** Four kilobytes of prose that is about nothing a query asks for. */
const FILLER = Array.from(
  { length: 60 },
  (_, i) => `Paragraph ${i} keeps the prose going with more words.`,
).join('\n');

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-body-');
  writeTree(dir, {
    'transit-times/SKILL.md': md(
      'transit-times',
      'Real-time departures for Boston public transport.',
      '## Examples\n\n- next Red Line train from Alewife\n- buses leaving Park Street',
    ),
    'a-share/SKILL.md': md(
      'a-share',
      'Real-time quotes and volume analysis for mainland China stocks.',
      '## 示例\n\n- 查询贵州茅台、宁德时代的实时行情\n- 分析主力资金动向',
    ),
    'kube-short/SKILL.md': md('kube-short', 'Runs kubectl against a cluster.', 'Short body.'),
    'kube-long/SKILL.md': md('kube-long', 'Runs kubectl against a cluster.', FILLER),
    'video-tools/SKILL.md': md(
      'video-tools',
      'Trims, crops and converts video clips.',
      'Works on local files.\n\nNot for downloading videos from websites.\n',
    ),
    'clip-saver/SKILL.md': md(
      'clip-saver',
      'Saves clips from streams to disk.',
      '不适用于视频下载。\n\n保存直播片段。',
    ),
    'fetcher/SKILL.md': md('fetcher', 'Downloads files and videos from a URL.', 'Give it a link.'),
  });
  index = indexOf(await catalogOf(dir));
});
const run = (query: string) => route(index, query, defaultConfig(), readyContext());
const scoreOf = (query: string, name: string) => {
  const match = matchQuery(index, analyzeQuery(query));
  return match.score(index.docs.find((d) => d.name === name)!.index);
};

describe('the skill body as a BM25F field (issue 10 §2)', () => {
  it('finds a skill by words only its body uses, in English and Chinese', () => {
    expect(run('when is the next train out of Alewife?').candidates[0].name).toBe('transit-times');
    expect(run('贵州茅台今天涨了多少').candidates[0].name).toBe('a-share');
  });

  it('normalizes the body apart, so a long body does not dilute a name match', () => {
    const short = scoreOf('kubectl get pods', 'kube-short');
    const long = scoreOf('kubectl get pods', 'kube-long');
    expect(long).toBeGreaterThan(0.9 * short);
  });

  it('honours the body’s "Not for …" sentences: their words exclude, they do not match', () => {
    const tools = index.docs.find((d) => d.name === 'video-tools')!;
    const download = terms('downloading')[0];
    expect(tools.excluded.has(download)).toBe(true);
    expect(tools.textTf.has(download)).toBe(false);
    const english = run('download this video clip');
    const excluded = english.candidates.find((c) => c.name === 'video-tools')!;
    expect(excluded.factors.intent_match.value).toBeLessThan(0.2);
    expect(excluded.status).not.toBe('selected');
    const chinese = run('帮我下载这个视频');
    expect(chinese.candidates.find((c) => c.name === 'clip-saver')?.status ?? 'not_recalled').not.toBe(
      'selected',
    );
  });
});
