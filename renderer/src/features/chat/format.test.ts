import { describe, expect, it } from 'vitest';
import { formatWhen } from './format';

describe('formatWhen', () => {
  const now = new Date(2025, 5, 18, 15, 0);
  it('shows the time today, yesterday, the weekday, then the date', () => {
    expect(formatWhen(new Date(2025, 5, 18, 9, 5).toISOString(), now)).toMatch(/09|9/);
    expect(formatWhen(new Date(2025, 5, 17, 23, 0).toISOString(), now)).toBe('Yesterday');
    expect(formatWhen(new Date(2025, 5, 14).toISOString(), now)).not.toMatch(/2025/);
    expect(formatWhen(new Date(2024, 0, 2).toISOString(), now)).toMatch(/2024/);
    expect(formatWhen('nonsense', now)).toBe('');
  });
});
