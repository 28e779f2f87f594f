import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRONTMATTER_FIX_CODES } from '../../../shared/contract';
import { tempDir, writeTree } from '../../testing/fixtures';
import { firstParagraph, fixFrontmatter } from '../skills/frontmatterFix';
import { RepairService } from './service';

// The frontmatter fix as the window reviews it (repair.fixFrontmatter, then revise with the
// user's own description, apply, undo): no executor and no model are involved.
describe('a frontmatter fix in the repair review', () => {
  it('is revised with the user’s edit without a run, applied, and undone byte for byte', async () => {
    const home = tempDir('skilldeck-fmfix-home-');
    const skills = tempDir('skilldeck-fmfix-');
    const original =
      '# Ledger\n\nBalances a household ledger from CSV bank exports.\n\n## Steps\n1. Read the CSV.\n';
    writeTree(skills, { 'ledger/SKILL.md': original });
    const dir = path.join(skills, 'ledger');
    const service = new RepairService({ home });

    const proposal = await service.fixFrontmatter(dir);
    expect(proposal).toMatchObject({ fixer: 'frontmatter', source: 'fixer', status: 'pending' });
    expect(proposal.files[0].after).toBe(
      `---\nname: ledger\ndescription: Balances a household ledger from CSV bank exports.\n---\n\n${original}`,
    );
    expect((await service.proposals({ skill: dir })).map((p) => p.id)).toEqual([proposal.id]);

    const mine = proposal.files[0].after.replace('from CSV bank exports', 'from bank CSV exports');
    const revised = await service.revise(proposal.id, { edited: [{ path: 'SKILL.md', content: mine }] });
    expect(revised).toMatchObject({ source: 'user', fixer: 'frontmatter' });
    expect(revised.replay.met_expectation).toBe(true);

    const revision = await service.apply(revised.id);
    expect(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(mine);
    await service.undo(revision.revision);
    expect(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(original);
  });

  it('refuses an edit that leaves the file unloadable, at revise and at apply', async () => {
    const home = tempDir('skilldeck-fmfix-home-');
    const skills = tempDir('skilldeck-fmfix-');
    writeTree(skills, { 'notes/SKILL.md': '---\nname: notes\ndescription: Keep notes.\n\n# Notes\n' });
    const dir = path.join(skills, 'notes');
    const service = new RepairService({ home });
    const proposal = await service.fixFrontmatter(dir);
    await expect(service.revise(proposal.id, { accepted_hunks: [] })).rejects.toThrow(
      /changes nothing|not closed/,
    );
    const unclosed = proposal.files[0].after.replace('\n---\n', '\n');
    await expect(
      service.apply(proposal.id, { edited: [{ path: 'SKILL.md', content: `${unclosed}x` }] }),
    ).rejects.toThrow(/would still not load: The frontmatter is not closed/);
    expect(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(
      '---\nname: notes\ndescription: Keep notes.\n\n# Notes\n',
    );
  });
});

describe('Fix… pressed again', () => {
  it('reopens the pending proposal of the same file; a changed file gets a new one', async () => {
    const home = tempDir('skilldeck-fmfix-home-');
    const skills = tempDir('skilldeck-fmfix-');
    writeTree(skills, { 'notes/SKILL.md': '---\nname: notes\ndescription: Keep notes.\n\n# Notes\n' });
    const dir = path.join(skills, 'notes');
    const service = new RepairService({ home });
    const first = await service.fixFrontmatter(dir);
    expect((await service.fixFrontmatter(dir)).id).toBe(first.id);
    expect(await service.proposals({ skill: dir })).toHaveLength(1);

    fs.appendFileSync(path.join(dir, 'SKILL.md'), 'More notes.\n');
    const next = await service.fixFrontmatter(dir);
    expect(next.id).not.toBe(first.id);
    // Rejected, it is not offered again: the next press proposes afresh.
    service.reject(next.id, 'not like this');
    expect((await service.fixFrontmatter(dir)).id).not.toBe(next.id);
  });
});

describe('the description a file without frontmatter gets', () => {
  it('is its first prose paragraph, without badges, fences, links or emphasis', () => {
    const text = [
      '<!-- generated -->',
      '# Tool',
      '',
      '[![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x)',
      '',
      '```bash',
      'npx tool',
      '```',
      '',
      'Converts **Markdown** to [PDF](https://example.com) with `pandoc`,',
      'keeping tables.',
      '',
      'Second paragraph.',
    ].join('\n');
    expect(firstParagraph(text)).toBe('Converts Markdown to PDF with pandoc, keeping tables.');
  });

  it('is cut at a sentence end within the spec’s 1024 characters', () => {
    const long = `${'A sentence that goes on. '.repeat(60)}`;
    const cut = firstParagraph(long);
    expect(cut.length).toBeLessThanOrEqual(1024);
    expect(cut.endsWith('on.')).toBe(true);
  });

  it('is refused when the file has no paragraph to give', () => {
    expect(fixFrontmatter('# Only a heading\n\n```\ncode\n```\n', 'x')).toEqual({
      reason: 'SKILL.md has no paragraph to describe the skill with; write its frontmatter by hand.',
    });
    expect(fixFrontmatter('---\nname: ok\ndescription: Fine.\n---\nbody\n', 'ok')).toEqual({
      reason: 'SKILL.md has no frontmatter error to fix.',
    });
  });

  it('fixes each load problem the window offers Fix… for', () => {
    const cases: Record<string, string> = {
      'frontmatter-unclosed': '---\nname: a\ndescription: Does a.\n\n# A\n',
      'frontmatter-not-at-start': '<!-- note -->\n---\nname: a\ndescription: Does a.\n---\n# A\n',
      'no-frontmatter': '# A\n\nDoes a thing for people.\n',
    };
    expect(Object.keys(cases).sort()).toEqual([...FRONTMATTER_FIX_CODES].sort());
    for (const [code, text] of Object.entries(cases)) {
      const fix = fixFrontmatter(text, 'a');
      expect('problem' in fix && fix.problem.code, code).toBe(code);
    }
  });
});
