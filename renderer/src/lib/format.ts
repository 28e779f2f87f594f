const integer = new Intl.NumberFormat('en-US');

/** `3483` → `3,483`. */
export const formatCount = (n: number): string => integer.format(n);

/** `n` + the noun, pluralized the simple English way: `1 skill`, `3,483 skills`. */
export const plural = (n: number, noun: string): string => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** Human file size: `812 B`, `4.2 KB`, `1.3 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
