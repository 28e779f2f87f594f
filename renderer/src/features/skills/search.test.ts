import { describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../../shared/contract';
import { NO_FILTERS, facetCounts, filterSkills, indexSkills, parseQuery } from './search';

const skill = (over: Partial<SkillSummary>): SkillSummary => ({
  id: `/skills/${over.name}`,
  name: 'x',
  description: '',
  path: `/skills/${over.name}`,
  file: 'SKILL.md',
  source: 'extra',
  root: '/skills',
  type: 'instruction',
  triggers: [],
  tags: [],
  routable: true,
  problems: [],
  shadows: [],
  ...over,
});

const items = indexSkills([
  skill({ name: 'pdf-tools', description: 'Fill and merge PDF forms', tags: ['documents'] }),
  skill({ name: 'invoice', displayName: 'Invoice Maker', triggers: ['发票', 'bill'], type: 'script' }),
  skill({
    name: 'broken',
    description: 'Missing things',
    source: 'bundled',
    problems: [{ severity: 'error', code: 'yaml-invalid', message: 'Fix the YAML.' }],
  }),
]);

const names = (words: string, filters = NO_FILTERS) =>
  filterSkills(items, parseQuery(words), filters).map((i) => i.skill.name);

describe('skill search', () => {
  it('sorts by the shown name', () => {
    expect(items.map((i) => i.skill.name)).toEqual(['broken', 'invoice', 'pdf-tools']);
  });

  it('matches name, displayName, description, triggers and tags, case-insensitively', () => {
    expect(names('PDF')).toEqual(['pdf-tools']);
    expect(names('maker')).toEqual(['invoice']);
    expect(names('发票')).toEqual(['invoice']);
    expect(names('documents')).toEqual(['pdf-tools']);
  });

  it('ANDs words', () => {
    expect(names('merge forms')).toEqual(['pdf-tools']);
    expect(names('merge invoice')).toEqual([]);
  });

  it('applies filters and counts facets with the other groups applied', () => {
    const filters = { sources: [], types: ['script' as const], problemsOnly: false };
    expect(names('', filters)).toEqual(['invoice']);
    const facets = facetCounts(items, [], filters);
    expect(facets.type).toEqual({ instruction: 2, script: 1, direct: 0 });
    expect(facets.source.extra).toBe(1);
    expect(facets.problems).toBe(0);
    expect(facetCounts(items, [], NO_FILTERS).problems).toBe(1);
  });
});
