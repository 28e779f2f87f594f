import YAML from 'yaml';
import type { Problem } from '../../../shared/contract';
import { normalizeText, splitFrontmatter } from './frontmatter';

/**
 * A SKILL.md whose frontmatter the lenient loader could only salvage, made loadable by a
 * mechanical edit (what-users-ask #4: show how to fix it, then fix it): a block never closed
 * gets its `---`, a block below other content moves to the top, fields without the opening `---`
 * get it, and a file with no block gets one (name from the folder, description from its first
 * paragraph, as Claude Code reads such a file). The user reviews the diff before anything is written.
 */
export interface FrontmatterFix {
  /** The new text, with the file's own line ends. */
  after: string;
  /** The loader's problem the edit removes. */
  problem: Problem;
  /** One sentence: what the edit does. */
  did: string;
}

/** The description a spec-valid frontmatter may hold (agentskills.io: 1–1024 characters). */
const MAX_DESCRIPTION = 1024;
/** The name a spec-valid frontmatter may hold. */
const MAX_NAME = 64;

/** The edit for the first frontmatter problem that has one, or why there is none. */
export function fixFrontmatter(input: string, folderName: string): FrontmatterFix | { reason: string } {
  const crlf = /\r\n/.test(input);
  const { text } = normalizeText(input);
  const split = splitFrontmatter(input);
  const problem = split.problems.find((p) => p.severity === 'error');
  if (!problem) return { reason: 'SKILL.md has no frontmatter error to fix.' };
  const lines = text.split('\n');
  const block = (raw: string, rest: string) => `---\n${raw.replace(/\n+$/, '')}\n---\n${rest}`;
  let after: string;
  let did: string;
  switch (problem.code) {
    case 'frontmatter-unclosed':
      after = block(split.raw, split.body.startsWith('\n') ? split.body : `\n${split.body}`);
      did = `Closes the frontmatter with a \`---\` line after its last field (as line ${split.lineOffset + split.raw.split('\n').length + 1}).`;
      break;
    case 'frontmatter-not-at-start': {
      const above = lines
        .slice(0, split.lineOffset - 1)
        .join('\n')
        .trim();
      after = block(split.raw, `\n${above}\n\n${split.body.replace(/^\n+/, '')}`);
      did = `Moves the frontmatter from line ${split.lineOffset} to the top of SKILL.md; the ${above.split('\n').length} line(s) above it follow it.`;
      break;
    }
    case 'no-frontmatter': {
      if (split.found) {
        after = block(split.raw, split.body.startsWith('\n') ? split.body : `\n${split.body}`);
        did = 'Adds the missing opening `---` above the first field.';
        break;
      }
      const description = firstParagraph(text);
      if (!description)
        return {
          reason: 'SKILL.md has no paragraph to describe the skill with; write its frontmatter by hand.',
        };
      const name = nameFromFolder(folderName);
      if (!name)
        return {
          reason: `The folder name "${folderName}" gives no valid skill name; write the frontmatter by hand.`,
        };
      const fields = YAML.stringify({ name, description }, { lineWidth: 0 }).trimEnd();
      after = `---\n${fields}\n---\n\n${text.replace(/^\n+/, '')}`;
      did = `Adds a frontmatter: name "${name}" (the folder's) and the first paragraph as the description.`;
      break;
    }
    default:
      return { reason: `${problem.message} This needs a person: no mechanical edit fixes it.` };
  }
  return { after: crlf ? after.replace(/\n/g, '\r\n') : after, problem, did };
}

/** A spec-valid name from a folder's: lower case, letters, digits and single hyphens. */
function nameFromFolder(folder: string): string {
  return folder
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME)
    .replace(/-+$/, '');
}

/**
 * The body's first paragraph as plain text: no headings, fences, HTML comments, images, badges,
 * tables or list markers; links become their text. Cut at a sentence end within the limit.
 */
export function firstParagraph(text: string): string {
  const paragraph: string[] = [];
  let fence = false;
  let comment = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fence = !fence;
      if (paragraph.length) break;
      continue;
    }
    if (fence) continue;
    if (comment || line.startsWith('<!--')) {
      comment = !line.includes('-->');
      continue;
    }
    const prose = line !== '' && !/^(#|>|\||!\[|\[!\[|<|---|\*\*\*|[-*+] |\d+\. )/.test(line);
    if (prose) paragraph.push(line);
    else if (paragraph.length) break;
  }
  const plain = paragraph
    .join(' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= MAX_DESCRIPTION) return plain;
  const cut = plain.slice(0, MAX_DESCRIPTION);
  const end = cut.search(/[.!?。](?=[^.!?。]*$)/);
  return end > MAX_DESCRIPTION / 2
    ? cut.slice(0, end + 1)
    : `${cut.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…`;
}
