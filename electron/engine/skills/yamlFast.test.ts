import { describe, expect, it } from 'vitest';
import { parseJson5ish } from './json5ish';
import { parseFastYaml } from './yamlFast';
import { parseYamlLenient } from './yamlLenient';

/** Frontmatter the fast reader must take, each read exactly as the `yaml` package (plus repair) reads it. */
const ACCEPTED: Record<string, string> = {
  plain: 'name: x\ndescription: Plain text, with [brackets] and {braces} inside\nversion: 1.0',
  quoted: 'a: "tab\\tand \\"quotes\\" \\u00e9"\nb: \'it\'\'s\'\nc: ""',
  comments: '# leading\nname: x # trailing\n  # indented comment\ndescription: y',
  empty: 'a:\nb: ~\nc: null',
  nested: 'metadata:\n  author: Ada\n  deep:\n    deeper: yes\nafter: 1',
  sequences: 'tags:\n  - one\n  - "two"\n  - three # note\nsame-indent:\n- a\n- b',
  seqOfMaps: 'install:\n  - id: brew\n    kind: brew\n    bins: [jq]\n  - id: node\n    kind: node',
  literal: 'a: |\n  line one\n    indented\n\n  after blank\nb: |-\n  stripped\nc: x',
  folded: 'a: >\n  folded one\n  folded two\n\n  new paragraph\nb: >-\n  trailing space kept \n  next',
  multilinePlain: 'description:\n  Builds things\n  across lines\n\n  with a paragraph\nname: x',
  continuedPlain: 'description: Starts here\n  and continues\nname: x',
  json: 'metadata: {"openclaw": {"emoji": "🦞", "requires": {"bins": ["jq"], "env": []}, "n": 1.50, "b": true, "z": null}}',
  flowPlain: 'requires:\n  mcp: [rube, other-tool]\ntools: {a: x, b: [1, 2]}',
  multilineFlow:
    'metadata:\n  {\n    "openclaw":\n      {\n        "emoji": "x",\n        "bins": ["a", "b",],\n      },\n  }\nafter: 1',
  closingAtKeyIndent: 'metadata: {\n  "clawdbot": {\n    "emoji": "x"\n  }\n}\nafter: 1',
  duplicates: 'name: a\ndescription: first\ndescription: second',
  unquotedColon: 'name: x\ndescription: Use when: the user asks\nlicense: MIT',
  unquotedColonFolded: 'description: Triggers: one,\n  two, three\nname: x',
  bracketHint: 'argument-hint: [file] [mode]\nname: x',
  dashWord: 'name: -21risk-automation\ndescription: ok',
};

/** Frontmatter the fast reader leaves to the `yaml` package. */
const DECLINED: Record<string, string> = {
  anchors: 'a: &x 1\nb: *x',
  tags: 'a: !!str 1',
  tabs: 'a:\n\tb: 1',
  keep: 'a: |+\n  x\n\nb: 1',
  listRoot: '- a\n- b',
  spacedKey: 'display name: x',
  seqColon: 'items:\n  - a: b: c',
  multiLineQuote: 'a: "one\n  two"',
  brokenFlow: 'metadata: {"a": [1, 2}',
};

describe('fast YAML reader', () => {
  for (const [name, text] of Object.entries(ACCEPTED)) {
    it(`reads ${name} as the yaml package does`, () => {
      expect(parseFastYaml(text)).toBeDefined();
      expect(parseYamlLenient(text, 1)).toEqual(parseYamlLenient(text, 1, 'SKILL.md', { fast: false }));
    });
  }

  for (const [name, text] of Object.entries(DECLINED)) {
    it(`leaves ${name} to the yaml package`, () => {
      expect(parseFastYaml(text)).toBeUndefined();
    });
  }

  it('keeps scalars as written, like the failsafe schema', () => {
    expect(parseFastYaml('v: 1.0\nb: true\nn: 007\nm: {"x": 1.50}')?.data).toEqual({
      v: '1.0',
      b: 'true',
      n: '007',
      m: { x: '1.50' },
    });
  });

  it('reports what it had to read as quoted text', () => {
    expect(parseFastYaml(ACCEPTED.unquotedColon)?.quoted).toEqual([{ key: 'description', line: 2 }]);
    expect(parseFastYaml(ACCEPTED.bracketHint)?.data['argument-hint']).toBe('[file] [mode]');
  });
});

describe('JSON5-ish reader', () => {
  it('reads what OpenClaw authors write', () => {
    expect(parseJson5ish("{ openclaw: { 'emoji': '🦞', requires: { bins: ['jq',], }, }, // note\n}")).toEqual(
      {
        openclaw: { emoji: '🦞', requires: { bins: ['jq'] } },
      },
    );
    expect(parseJson5ish('{"a": 1 "b": [true null 2.5] /* c */}')).toEqual({ a: 1, b: [true, null, 2.5] });
    expect(parseJson5ish('{"bins":\\["curl"]}')).toEqual({ bins: ['curl'] });
  });

  it('gives up on what is not an object or list', () => {
    expect(parseJson5ish('[a] [b]')).toBeUndefined();
    expect(parseJson5ish('{"a": [1, 2}')).toBeUndefined();
    expect(parseJson5ish('{"a": "unterminated}')).toBeUndefined();
  });
});
