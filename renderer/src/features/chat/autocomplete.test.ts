import { describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../../shared/contract';
import { applyCompletion, completionOptions, matchOptions, tokenAt } from './autocomplete';

const skill = (name: string, over: Partial<SkillSummary> = {}): SkillSummary => ({
  id: `/s/${name}`,
  name,
  description: `${name} does things`,
  path: `/s/${name}`,
  file: `/s/${name}/SKILL.md`,
  source: 'bundled',
  root: '/s',
  type: 'script',
  triggers: [],
  tags: [],
  routable: true,
  problems: [],
  shadows: [],
  ...over,
});

describe('the token at the caret', () => {
  it('finds $name and /name at a word start', () => {
    expect(tokenAt('$js', 3)).toEqual({ trigger: '$', partial: 'js', start: 0, end: 3 });
    expect(tokenAt('please /csv now', 11)).toEqual({ trigger: '/', partial: 'csv', start: 7, end: 11 });
    expect(tokenAt('$', 1)).toEqual({ trigger: '$', partial: '', start: 0, end: 1 });
  });

  it('covers the rest of the name after the caret', () => {
    expect(tokenAt('$json-format x', 3)).toEqual({ trigger: '$', partial: 'js', start: 0, end: 12 });
  });

  it('ignores triggers inside words and finished words', () => {
    expect(tokenAt('and/or', 6)).toBeNull();
    expect(tokenAt('costs 5$', 8)).toBeNull();
    expect(tokenAt('$json ', 6)).toBeNull();
  });
});

describe('skill options', () => {
  it('offers routable, enabled, unshadowed skills once each', () => {
    const options = completionOptions([
      skill('zeta'),
      skill('alpha'),
      skill('broken', { routable: false }),
      skill('off', { enabled: false }),
      skill('hidden', { shadowedBy: '/u/hidden' }),
      skill('explicit', { autoSelect: false }),
      skill('alpha', { id: '/t/alpha' }),
    ]);
    expect(options.map((o) => o.name)).toEqual(['alpha', 'explicit', 'zeta']);
  });

  it('ranks prefix matches before substring matches', () => {
    const options = completionOptions([skill('csv-summary'), skill('json-format'), skill('to-csv')]);
    expect(matchOptions(options, 'csv').map((o) => o.name)).toEqual(['csv-summary', 'to-csv']);
    expect(matchOptions(options, '')).toHaveLength(3);
  });

  it('matches a display name with blanks as the word it is typed as, in any case', () => {
    const options = completionOptions([skill('Braintree Automation'), skill('PDF Tools')]);
    expect(matchOptions(options, 'braintree-a').map((o) => o.name)).toEqual(['Braintree Automation']);
    expect(matchOptions(options, 'tools').map((o) => o.name)).toEqual(['PDF Tools']);
  });
});

describe('applying a completion', () => {
  it('replaces the token and adds one space', () => {
    const token = tokenAt('use $js please', 7)!;
    expect(applyCompletion('use $js please', token, 'json-format')).toEqual({
      text: 'use $json-format please',
      caret: 17,
    });
    const end = tokenAt('/cs', 3)!;
    expect(applyCompletion('/cs', end, 'csv-summary')).toEqual({ text: '/csv-summary ', caret: 13 });
  });

  it('types a name with blanks as one word, which the router reads as that skill', () => {
    const token = tokenAt('$brain', 6)!;
    expect(applyCompletion('$brain', token, 'Braintree Automation')).toEqual({
      text: '$Braintree-Automation ',
      caret: 22,
    });
  });
});
