import { describe, expect, it } from 'vitest';
import { viewFromHash } from './useView';

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
