import { describe, expect, it } from 'vitest';
import { fillTemplate } from './template';

describe('fillTemplate (direct skills)', () => {
  const system = { cwd: '/work/space', timestamp: '2026-11-23T10:00:00.000Z' };

  it('fills input, nested input and system placeholders', () => {
    const body =
      '# {{input.title}}\nAt {{ input.meta.location }} on {{system.timestamp}} in {{system.cwd}}; n={{input.n}}';
    const { text, missing } = fillTemplate(body, {
      input: { title: 'Weekly sync', meta: { location: 'Room 4' }, n: 3 },
      system,
    });
    expect(text).toBe('# Weekly sync\nAt Room 4 on 2026-11-23T10:00:00.000Z in /work/space; n=3');
    expect(missing).toEqual([]);
  });

  it('leaves a missing field as a visible blank to fill, and reports it once', () => {
    const { text, missing } = fillTemplate('{{input.title}} / {{input.meta.organizer}} / {{input.title}}', {
      input: { meta: {} },
      system,
    });
    expect(text).toBe('_title_ / _organizer_ / _title_');
    expect(missing).toEqual(['input.title', 'input.meta.organizer']);
  });

  it('does not walk the prototype chain or touch other braces', () => {
    const { text } = fillTemplate('{{input.constructor}} {{input.__proto__.x}} {{other.thing}} {{ }}', {
      input: {},
      system,
    });
    expect(text).toBe('_constructor_ _x_ {{other.thing}} {{ }}');
  });
});
