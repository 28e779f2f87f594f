import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { interpretSkill, type SkillLocation, type SkillTexts } from './loadSkill';
import { parseFrontmatter } from './validator';

// A SKILL.md or skill.yaml is anyone's text: a downloaded skill lists at start-up, before anyone
// has read it. Whatever its YAML, the list must get the skill back, with a problem that says why.
const loc: SkillLocation = {
  dir: '/skills/hostile',
  fileName: 'SKILL.md',
  root: '/skills',
  source: 'user',
  hasAgentsDir: false,
  hasScriptsDir: false,
};
const read = (frontmatter: string, sidecar?: string, description = 'description: Reads hostile YAML.') =>
  interpretSkill(
    loc,
    {
      skillMd: `---\nname: hostile\n${description}\n${frontmatter}\n---\n# Body\n`,
      scriptsHasFiles: false,
      ...(sidecar === undefined ? {} : { skillYaml: { file: 'skill.yaml', text: sidecar } }),
    } satisfies SkillTexts,
    'linux',
  );

describe('hostile frontmatter YAML', () => {
  it('refuses to nest thousands of levels deep, and still lists the skill by name', () => {
    // The `yaml` package recursed once per level: near its stack limit V8 aborted the process.
    const deep = {
      4: `x: ${'['.repeat(20_000)}`,
      5: `x: ok\ny: ${'{a: '.repeat(5_000)}`,
      6: `x: ok\ny:\n  ${'- '.repeat(20_000)}a`,
    };
    for (const [line, yaml] of Object.entries(deep)) {
      const skill = read(yaml);
      expect(skill.metadata).toMatchObject({ name: 'hostile', description: 'Reads hostile YAML.' });
      const [problem] = skill.problems.filter((p) => p.severity === 'error');
      expect(problem).toMatchObject({ code: 'yaml-invalid', line: Number(line) });
      expect(problem.message).toContain(`nests more than 100 levels deep (line ${line})`);
    }
  });

  it('reads a skill.yaml nested as deep as a warning, the frontmatter still used', () => {
    const skill = read('license: MIT', `name: other\ntags: ${'['.repeat(20_000)}\n`);
    expect(skill.metadata.name).toBe('hostile');
    expect(skill.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', code: 'sidecar-invalid', field: 'skill.yaml', line: 2 }),
    );
  });

  it('keeps the nesting real skills use', () => {
    const nested = ['metadata:', ...Array.from({ length: 12 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`)].join(
      '\n',
    );
    const skill = read(`${nested} v\nx: ${'['.repeat(30)}${']'.repeat(30)}`);
    expect(skill.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });
});

describe('hostile YAML elsewhere', () => {
  it('skills validate refuses it with a message, as the reference validator refuses bad YAML', () => {
    expect(() =>
      parseFrontmatter(`---\nname: hostile\ndescription: d\nx: ${'['.repeat(20_000)}\n---\n`),
    ).toThrow('Invalid YAML in frontmatter: it nests more than 100 levels deep (line 4)');
  });
});

describe('a frontmatter of thousands of YAML errors', () => {
  it('is read at the speed of any other, reporting the first error on its line', () => {
    // The `yaml` package formatted every error with a scan of its line: 22 s at 80,000 `"`. Past
    // 64 KiB the frontmatter is not read as YAML at all (below), so this line stays under it.
    const skill = read(`license: MIT\nx: ${'"'.repeat(60_000)}`);
    expect(skill.metadata).toMatchObject({ name: 'hostile', description: 'Reads hostile YAML.' });
    const [problem] = skill.problems.filter((p) => p.severity === 'error');
    expect(problem).toMatchObject({ code: 'yaml-invalid', line: 5 });
    expect(problem.message).toMatch(/^The frontmatter is not valid YAML \(line 5: [^\n]+\)\. Fix the syntax/);
  });
});

describe('YAML aliases', () => {
  it('reads a value that starts with `*` as the text it is, not as a throw', () => {
    // An alias to no anchor threw out of the loader: the list showed the folder's name only.
    const skill = read('', undefined, 'description: *bold*');
    expect(skill.metadata.description).toBe('*bold*');
    expect(skill.problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'yaml-recovered', field: 'description', line: 3 }),
    ]);
  });

  it('reports an alias bomb in the frontmatter, still listing the skill by name', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]']
      .concat(
        ['b', 'c', 'd', 'e', 'f'].map(
          (k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcde'[i]}`).join(', ')}]`,
        ),
      )
      .join('\n');
    const skill = read(bomb);
    expect(skill.metadata).toMatchObject({ name: 'hostile', description: 'Reads hostile YAML.' });
    const [problem] = skill.problems.filter((p) => p.severity === 'error');
    expect(problem).toMatchObject({ code: 'yaml-invalid', line: 2 });
    expect(problem.message).toMatch(/^The frontmatter could not be read as YAML \(.*alias.*\)\./i);
  });

  it('ignores an alias bomb in skill.yaml with a warning', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]']
      .concat(
        ['b', 'c', 'd', 'e', 'f'].map(
          (k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcde'[i]}`).join(', ')}]`,
        ),
      )
      .join('\n');
    const skill = read('license: MIT', `name: other\n${bomb}\n`);
    expect(skill.metadata.name).toBe('hostile');
    expect(skill.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', code: 'sidecar-invalid', field: 'skill.yaml', line: 1 }),
    );
  });
});

describe('a frontmatter or skill.yaml over 64 KiB', () => {
  // Real frontmatter holds a few KiB (the corpus's largest: 2.4 KiB). Past 64 KiB it is not
  // read as YAML at all: the `yaml` package took 0.5 s on a line of 120,000 `"` in the loader
  // and 27 s in `skills validate`, and a megabyte of fields would sit in every list and route.
  const timed = <T>(read: () => T) => {
    const started = performance.now();
    const out = read();
    return { out, ms: performance.now() - started };
  };
  const fields = (bytes: number) =>
    Array.from(
      { length: Math.ceil(bytes / 64) },
      (_, i) => `k${i}: ${'v'.repeat(60 - String(i).length)}`,
    ).join('\n');

  it('lists the skill by its folder name with one error, whatever the YAML', () => {
    for (const frontmatter of [
      `x: ${'"'.repeat(120_000)}`,
      fields(1024 * 1024),
      `x: ${'€'.repeat(22_000)}`,
    ]) {
      const { out: skill, ms } = timed(() => read(frontmatter));
      expect(ms).toBeLessThan(500);
      expect(skill.metadata.name).toBe('hostile');
      expect(skill.metadata.description).toBe('');
      expect(skill.problems).toEqual([
        {
          severity: 'error',
          code: 'yaml-invalid',
          message: expect.stringMatching(
            /^The frontmatter is \d+ KiB, more than the 64 KiB SkillDeck reads, so it was not read as YAML\. /,
          ),
          line: 2,
        },
      ]);
    }
  });

  it('still reads one just under the cap', () => {
    const skill = read(fields(60 * 1024));
    expect(skill.problems).toEqual([]);
    expect(skill.metadata.description).toBe('Reads hostile YAML.');
  });

  it('ignores such a skill.yaml with a warning, the frontmatter still used', () => {
    const skill = read('license: MIT', `name: other\n${fields(100 * 1024)}\n`);
    expect(skill.metadata).toMatchObject({ name: 'hostile', license: 'MIT' });
    expect(skill.problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'sidecar-invalid', field: 'skill.yaml', line: 1 }),
    ]);
    expect(skill.problems[0].message).toMatch(
      /^skill\.yaml is 101 KiB, more than the 64 KiB SkillDeck reads; it was ignored\./,
    );
  });

  it('skills validate refuses it in a moment', () => {
    const { out, ms } = timed(() => {
      try {
        parseFrontmatter(`---\nname: hostile\ndescription: d\nx: ${'"'.repeat(120_000)}\n---\n`);
      } catch (e) {
        return e;
      }
    });
    expect(ms).toBeLessThan(500);
    expect(out).toMatchObject({
      name: 'ParseError',
      message:
        "SKILL.md frontmatter is 118 KiB, over SkillDeck's 64 KiB limit; move long text into the body or references/",
    });
  });
});

describe('skills validate on a frontmatter of thousands of YAML errors under the cap', () => {
  const thrown = (skillMd: string) => {
    const started = performance.now();
    try {
      parseFrontmatter(skillMd);
    } catch (e) {
      return { message: (e as Error).message, ms: performance.now() - started };
    }
    throw new Error('no error');
  };

  it('names the first error by line and column in a moment', () => {
    // The `yaml` package formatted each of 30,000 errors with a scan of their line: 12 s.
    const { message, ms } = thrown(`---\nname: x\ndescription: d\nx: ${'"'.repeat(60_000)}\n---\n`);
    expect(ms).toBeLessThan(1500);
    expect(message).toBe(
      'Invalid YAML in frontmatter: Unexpected double-quoted-scalar at node end at line 4, column 6',
    );
  });

  it('words the first of 20 errors in full, and the first of 21 by its line and column', () => {
    const quotes = (n: number) => `---\nname: x\ndescription: d\nx: ${'"'.repeat(n)}\n---\n`;
    const twenty = thrown(quotes(42)).message;
    expect(twenty).toMatch(
      /^Invalid YAML in frontmatter: Unexpected double-quoted-scalar at node end at line 4, column 6:\n\n/,
    );
    expect(thrown(quotes(44)).message).toBe(
      'Invalid YAML in frontmatter: Unexpected double-quoted-scalar at node end at line 4, column 6',
    );
  });

  it('counts the line and column of an error at the very start, or on a character before a newline', () => {
    expect(thrown(`---${']'.repeat(30)}\n---\n`).message).toBe(
      'Invalid YAML in frontmatter: Unexpected flow-seq-end token in YAML document: "]" at line 1, column 1',
    );
    expect(thrown(`---\n${'&\n'.repeat(30)}---\n`).message).toBe(
      'Invalid YAML in frontmatter: A node can have at most one anchor at line 3, column 1',
    );
  });

  it('leaves stack traces as they were after reading errors without them', () => {
    const limit = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 7;
      thrown(`---\nname: x\ndescription: d\nx: ${'"'.repeat(60)}\n---\n`);
      expect(Error.stackTraceLimit).toBe(7);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });

  it('words an ordinary error as the yaml package does, with its line and caret', () => {
    for (const yaml of ['name: x\nname: y', 'name: x\ndescription: "d\nx: 1', 'a: b: c']) {
      const expected = YAML.parseDocument(`\n${yaml}\n`, {
        schema: 'failsafe',
        uniqueKeys: true,
        logLevel: 'silent',
      }).errors[0].message;
      expect(expected).toMatch(/ at line \d+, column \d+:\n\n/);
      expect(thrown(`---\n${yaml}\n---\n`).message).toBe(`Invalid YAML in frontmatter: ${expected}`);
    }
  });
});
