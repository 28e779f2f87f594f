import { describe, expect, it } from 'vitest';
import { navEntryOf, viewFromHash } from './useView';

describe('viewFromHash', () => {
  it('names the open view from the address hash, Skills by default', () => {
    expect(viewFromHash('#chat')).toBe('chat');
    expect(viewFromHash('#/settings')).toBe('settings');
    expect(viewFromHash('#activity/abc')).toBe('activity');
    expect(viewFromHash('#runs')).toBe('runs');
    expect(viewFromHash('#repair/run-1/rep-1')).toBe('repair');
    expect(viewFromHash('')).toBe('skills');
    expect(viewFromHash('#nope')).toBe('skills');
  });
});

describe('navEntryOf', () => {
  it('lights Runs for a run’s review, Skills for a fix made without a run, else the view', () => {
    expect(navEntryOf('#repair/run-1/rep-1')).toBe('runs');
    expect(navEntryOf('#repair/-/fm-1')).toBe('skills');
    expect(navEntryOf('#chat')).toBe('chat');
    expect(navEntryOf('')).toBe('skills');
  });
});
