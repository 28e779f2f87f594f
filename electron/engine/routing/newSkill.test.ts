import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { splitInstruction } from './instruction';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const md = skillMd;

/** A skill-authoring skill beside skills for the tasks a new skill might be asked to do. */
const SKILLS: Record<string, string> = {
  'skill-creator/SKILL.md': md(
    'skill-creator',
    "Create new skills, modify and improve existing skills, and measure skill performance. Use when users want to create a skill from scratch, edit, or optimize an existing skill, run evals to test a skill, benchmark skill performance with variance analysis, or optimize a skill's description for better triggering accuracy.",
  ),
  'changelog-generator/SKILL.md': md(
    'changelog-generator',
    'Generates user-facing changelogs from git commits. Use when preparing release notes.',
  ),
  'pdf-summarizer/SKILL.md': md('pdf-summarizer', 'Summarizes PDF documents into key points.'),
  'invoice-organizer/SKILL.md': md(
    'invoice-organizer',
    'Organizes invoices and receipts (发票) into folders by vendor and month.',
  ),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-new-skill-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});
const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;

describe('quoted words', () => {
  it('are the user’s material: the payload, not the request', () => {
    expect(splitInstruction("Use our 'event-banner-v2' template to render 8 images")).toEqual({
      instruction: 'Use our   template to render 8 images',
      payload: 'event-banner-v2',
    });
    expect(splitInstruction('"Who was Ada Lovelace" as a slide title, in bold').payload).toBe(
      'Who was Ada Lovelace',
    );
    expect(splitInstruction('Search my vault for “weekly review” notes').payload).toBe('weekly review');
    // A Chinese sentence's quote glued to its words stays in it: it says where the task goes.
    expect(splitInstruction('把它放到“工作”清单下').payload).toBe('');
    // An apostrophe opens no quote; a message that is all quote keeps its words.
    expect(splitInstruction("don't summarize Accounting's report").payload).toBe('');
    expect(splitInstruction('"summarize the changelog"').instruction).toBe('"summarize the changelog"');
  });

  it('do not decide the skill: the request around them does', () => {
    expect(primary("summarize the 'changelog generator release notes' PDF into key points")).toBe(
      'pdf-summarizer',
    );
  });
});

describe('material after a colon', () => {
  it('is the payload, but a closing sentence that asks for work is the request again', () => {
    expect(
      splitInstruction(
        'order #58213 looks sketchy: billing in Ohio, IP in Vietnam, 3 cards tried. run it through FraudLabs Pro',
      ),
    ).toEqual({
      instruction: 'order #58213 looks sketchy. run it through FraudLabs Pro',
      payload: 'billing in Ohio, IP in Vietnam, 3 cards tried.',
    });
    expect(splitInstruction('新客户刚打电话：张伟，北京朝阳区。帮我在CRM里建个联系人').instruction).toBe(
      '新客户刚打电话. 帮我在CRM里建个联系人',
    );
    // Material that ends in an order of its own stays material.
    expect(splitInstruction('Translate this into Chinese: Open the app. Click Save.')).toEqual({
      instruction: 'Translate this into Chinese',
      payload: 'Open the app. Click Save.',
    });
    expect(splitInstruction('记一下：周五前提交报销单').payload).toBe('周五前提交报销单');
  });
});

describe('a request for a new skill', () => {
  it('keeps the request and drops what the new skill is to do', () => {
    // …in the words skill-authoring skills use for the request: write, make, build a skill all
    // mean create one.
    expect(splitInstruction('help me write a new skill that formats changelogs')).toEqual({
      instruction: 'help me create a new skill',
      payload: '',
      reworded: 'write',
    });
    expect(splitInstruction('build me an agent skill for posting to Slack').instruction).toBe(
      'create me an agent skill',
    );
    expect(splitInstruction('帮我写一个技能，用来整理发票').instruction).toBe('帮我 create a new skill');
    expect(splitInstruction('写一个整理发票的技能').instruction).toBe(' create a new skill');
    // Something the user has, made into a skill.
    expect(
      splitInstruction(
        'I want to package our internal deploy CLI as a skill for Claude — help me lay out the SKILL.md',
      ).instruction,
    ).toBe('I want to create a new skill');
    expect(splitInstruction('turn this changelog script into a skill').instruction).toBe(
      'create a new skill',
    );
    // A request about an installed skill, or for something else to be written, is not one.
    expect(splitInstruction('make the pdf skill faster').instruction).toBe('make the pdf skill faster');
    expect(splitInstruction('write a script that renames files').instruction).toBe(
      'write a script that renames files',
    );
  });

  it('goes to the skill-authoring skill, not to a skill for the task the new skill will do', () => {
    expect(primary('help me write a new skill that formats changelogs')).toBe('skill-creator');
    expect(primary('create a skill that summarizes PDFs')).toBe('skill-creator');
    expect(primary('帮我写一个技能，用来整理发票')).toBe('skill-creator');
    expect(primary('写一个整理发票的技能')).toBe('skill-creator');
    expect(primary('turn my changelog script into a skill with a SKILL.md and a scripts folder')).toBe(
      'skill-creator',
    );
  });

  it("says the match came from the user's words, not from a word the user did not type", () => {
    // The reason read "matched … word “create” (name)" for "make a new skill".
    const evidence = (query: string) =>
      route(index, query, defaultConfig(), readyContext()).candidates.find((c) => c.name === 'skill-creator')
        ?.evidence ?? [];
    for (const [query, said] of [
      ['make a new skill for our changelog', 'make'],
      ['turn this changelog script into a skill', 'turn this changelog script into a skill'],
      ['帮我写一个技能，用来整理发票', '写一个技能'],
    ]) {
      const found = evidence(query);
      expect(found.length, query).toBeGreaterThan(0);
      for (const e of found.filter((x) => x.kind === 'word'))
        expect(query.toLowerCase(), `${query}: ${e.query}`).toContain(e.query);
      expect(found, query).toContainEqual(
        expect.objectContaining({ kind: 'lexicon', query: said, matched: 'create' }),
      );
    }
  });

  it('leaves the task itself to its skill', () => {
    expect(primary('generate the changelog for the v2 release from the git commits')).toBe(
      'changelog-generator',
    );
    expect(primary('summarize this PDF document into key points')).toBe('pdf-summarizer');
    expect(primary('把这些发票按供应商整理好')).toBe('invoice-organizer');
  });
});
