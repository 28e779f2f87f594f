import { describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../../shared/contract';
import { reconcileSwitches, switchesOf } from './manage';

const summary = (name: string, extra: Partial<SkillSummary> = {}): SkillSummary => ({
  id: `/skills/${name}`,
  name,
  description: '',
  path: `/skills/${name}`,
  file: `/skills/${name}/SKILL.md`,
  source: 'managed',
  root: '/skills',
  type: 'instruction',
  triggers: [],
  tags: [],
  routable: true,
  problems: [],
  shadows: [],
  ...extra,
});

describe('skill switches', () => {
  it('are on by default, follow the list, and prefer what was just set', () => {
    expect(switchesOf({ switches: {} }, summary('a'))).toEqual({
      name: 'a',
      enabled: true,
      autoSelect: true,
    });
    expect(switchesOf({ switches: {} }, summary('a', { enabled: false, autoSelect: true }))).toMatchObject({
      enabled: false,
    });
    const switches = { a: { name: 'a', enabled: true, autoSelect: false } };
    expect(switchesOf({ switches }, summary('a', { enabled: false }))).toBe(switches.a);
  });

  it('drop local values once the list describes the skill itself', () => {
    const switches = {
      a: { name: 'a', enabled: false, autoSelect: true },
      b: { name: 'b', enabled: false, autoSelect: true },
    };
    expect(reconcileSwitches(switches, [summary('a', { enabled: false }), summary('b')])).toEqual({
      b: switches.b,
    });
  });
});
