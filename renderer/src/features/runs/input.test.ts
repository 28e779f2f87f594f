import { describe, expect, it } from 'vitest';
import type { SkillDetail } from '../../../../shared/contract';
import { documentedExample, entrypointOptions, inputExample, parseInput, templateSkeleton } from './input';

type Shape = Pick<SkillDetail, 'type' | 'metadata' | 'files'>;
const skill = (patch: {
  type?: SkillDetail['type'];
  entrypoints?: SkillDetail['metadata']['entrypoints'];
  files?: SkillDetail['files'];
}): Shape =>
  ({
    type: patch.type ?? 'script',
    metadata: { entrypoints: patch.entrypoints ?? [] } as unknown as SkillDetail['metadata'],
    files: patch.files ?? [],
  }) as Shape;

const file = (path: string, scriptLanguage?: string): SkillDetail['files'][number] => ({
  path,
  kind: 'file',
  size: 10,
  executable: false,
  ...(scriptLanguage ? { scriptLanguage } : {}),
});

describe('entrypoint options', () => {
  it('offers the declared entrypoints by name', () => {
    const options = entrypointOptions(
      skill({ entrypoints: [{ name: 'save', path: 'scripts/save_note.py', description: 'Write a note' }] }),
    );
    expect(options).toEqual([
      { value: 'save', label: 'save — scripts/save_note.py', description: 'Write a note' },
    ]);
  });

  it('offers the runnable files in scripts/ when none are declared', () => {
    const options = entrypointOptions(
      skill({
        files: [
          file('scripts/a.py', 'python'),
          file('scripts/notes.txt'),
          file('run.sh', 'bash'),
          file('scripts/b.sh', 'bash'),
        ],
      }),
    );
    expect(options.map((o) => o.value)).toEqual(['scripts/a.py', 'scripts/b.sh']);
  });

  it('offers none for instruction and direct skills', () => {
    expect(entrypointOptions(skill({ type: 'direct', files: [file('scripts/a.py', 'python')] }))).toEqual([]);
  });
});

describe('the JSON input', () => {
  it('accepts an object, or nothing', () => {
    expect(parseInput('{"title": "x"}')).toEqual({ ok: true, value: { title: 'x' } });
    expect(parseInput('  ')).toEqual({ ok: true, value: {} });
  });

  it('refuses what is not JSON, and JSON that is not an object', () => {
    const bad = parseInput('{title: 1}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^Not valid JSON/);
    expect(parseInput('[1, 2]')).toEqual({
      ok: false,
      error: 'The input must be a JSON object, such as {"content": "…"}.',
    });
    expect(parseInput('"text"').ok).toBe(false);
  });

  it('finds the documented example in SKILL.md', () => {
    const body =
      'Run it.\n\n```json\n[1]\n```\n\n```json\n{ "title": "Groceries", "dir": "out/lists" }\n```\n';
    expect(documentedExample(body)).toBe('{\n  "title": "Groceries",\n  "dir": "out/lists"\n}');
    expect(documentedExample('no example')).toBeNull();
  });

  it("builds a direct skill's fields from its placeholders", () => {
    const body =
      '# {{input.title}}\n{{ input.meta.location }} {{input.meta.organizer}} {{input.task}} {{system.cwd}}';
    expect(JSON.parse(templateSkeleton(body) ?? 'null')).toEqual({
      title: '',
      meta: { location: '', organizer: '' },
    });
    expect(templateSkeleton('{{input.task}} only')).toBeNull();
  });

  it('picks the example by skill type', () => {
    expect(inputExample({ type: 'direct', body: '{{input.a}}' })).toBe('{\n  "a": ""\n}');
    expect(inputExample({ type: 'instruction', body: '```json\n{"a":1}\n```' })).toBeNull();
  });
});
