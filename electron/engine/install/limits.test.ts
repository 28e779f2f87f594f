import { afterEach, describe, expect, it } from 'vitest';
import { Budget, isInside, safeEntryPath, testDelay } from './limits';

// The path and size rules every source goes through (archive.test.ts and folder.test.ts drive
// them with real archives and folders); here one input at a time.
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toMatchObject({ code: 'forbidden' });
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('safeEntryPath', () => {
  it('returns the clean relative path', () => {
    expect(safeEntryPath('a//b/./c/')).toBe('a/b/c');
    expect(safeEntryPath('./SKILL.md')).toBe('SKILL.md');
    expect(safeEntryPath('notes/a:b.txt')).toBe('notes/a:b.txt');
    expect(safeEntryPath('1:x')).toBe('1:x');
    expect(safeEntryPath('..hidden/x')).toBe('..hidden/x');
    expect(safeEntryPath('./')).toBe('');
  });

  it('refuses absolute, drive and UNC paths', () => {
    for (const name of ['/etc/passwd', 'C:/x', 'c:x', 'Z:', '//server/share/x'])
      expect(
        refusal(() => safeEntryPath(name)),
        name,
      ).toBe(
        `Install refused: entry ${JSON.stringify(name)} is an absolute path; only paths inside the skill are allowed.`,
      );
  });

  it('refuses "..", backslashes and NUL bytes', () => {
    expect(refusal(() => safeEntryPath('a/../../x'))).toBe(
      'Install refused: entry "a/../../x" climbs out of the target with "..".',
    );
    expect(refusal(() => safeEntryPath('a\\b'))).toBe(
      'Install refused: entry "a\\\\b" contains a backslash; archive paths must use "/" only.',
    );
    expect(refusal(() => safeEntryPath('a\0b'))).toBe(
      'Install refused: entry "a\\u0000b" contains a NUL byte.',
    );
  });

  it('shows at most 300 characters of a hostile name', () => {
    const name = `/${'x'.repeat(400)}`;
    expect(refusal(() => safeEntryPath(name))).toContain(`entry ${JSON.stringify(name.slice(0, 300))} is`);
  });
});

describe('Budget', () => {
  const limits = { maxTotalBytes: 100, maxFiles: 2, maxFileBytes: 60 };

  it('counts files and bytes up to the caps, and refuses the first one past them', () => {
    const budget = new Budget(limits);
    budget.addFile('a', 60);
    budget.addBytes('a', 60, 60);
    budget.addFile('b');
    budget.addBytes('b', 40, 40);
    expect(budget).toMatchObject({ files: 2, bytes: 100 });
    expect(refusal(() => budget.addBytes('b', 1, 41))).toBe(
      'Install refused: the content is larger than the 0 MiB total limit (at "b").',
    );
    expect(refusal(() => budget.addFile('c'))).toBe('Install refused: more than 2 files (at "c").');
    expect(refusal(() => new Budget(limits).checkFileSize('big', 61))).toBe(
      'Install refused: "big" is larger than the 0 MiB per-file limit.',
    );
  });

  it('words the caps in MiB, to a tenth', () => {
    const budget = new Budget({
      maxTotalBytes: 50 * 1024 * 1024,
      maxFiles: 1,
      maxFileBytes: 1.25 * 1024 * 1024,
    });
    expect(refusal(() => budget.addFile('f', 2 * 1024 * 1024))).toContain('the 1.3 MiB per-file limit');
    expect(refusal(() => budget.addBytes('f', 51 * 1024 * 1024, 0))).toContain('the 50 MiB total limit');
  });
});

describe('isInside', () => {
  it('is true for the folder and what lies under it, and nothing else', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c/d')).toBe(true);
    expect(isInside('/a/b', '/a/b/..c')).toBe(true);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/x')).toBe(false);
  });
});

describe('testDelay', () => {
  const variable = 'SKILLDECK_TEST_INSTALL_DELAY_MS';
  afterEach(() => {
    delete process.env[variable];
  });
  const first = (a: Promise<string>, b: Promise<string>) => Promise.race([a, b]);
  const timer = (ms: number) => new Promise<string>((done) => setTimeout(() => done('timer'), ms));

  it('returns at once in normal use', async () => {
    expect(
      await first(
        timer(0),
        testDelay().then(() => 'delay'),
      ),
    ).toBe('delay');
  });

  it('pauses for the kill tests when asked to', async () => {
    process.env[variable] = '40';
    expect(
      await first(
        timer(5),
        testDelay().then(() => 'delay'),
      ),
    ).toBe('timer');
  });
});
