// Picks the skills of one unseen routing round (electron/engine/routing/quality/corpus/README.md,
// rounds 15 on): 126 corpus skills that neither the dev set (skillset.txt) nor any earlier round
// holds — dev-half well-known skills first while any are left (up to 30), then 20 Composio
// toolkits, then OpenClaw archive skills — each group in the order of sha1("skilldeck-<round>:" +
// folder), skipping unparsed frontmatter and names already taken.
//
//   node scripts/select-unseen-round.mjs round29 [extra-used.txt,…] > /tmp/r29/skills.txt
//
// The helpers that write a round's queries get quality/corpus/unseen-prompt.md with rNN and HALF
// filled in, and half of the list each.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quality = path.join(root, 'electron', 'engine', 'routing', 'quality', 'corpus');
const corpus = path.resolve(root, '..', 'shared', 'corpus', 'skills');
const round = process.argv[2] ?? 'round29';

const lines = (file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
const skillset = new Set(lines(path.join(quality, 'skillset.txt')));
const used = new Set();
for (const file of fs.readdirSync(path.join(quality, 'unseen')))
  if (file.endsWith('-skills.txt'))
    for (const skill of lines(path.join(quality, 'unseen', file))) used.add(skill);
for (const extra of (process.argv[3] ?? '').split(',').filter(Boolean))
  for (const skill of lines(extra)) used.add(skill);

const sha1 = (text) => crypto.createHash('sha1').update(text).digest();
// The dev / held-out split of devset.ts halfOf, by a skill's folder.
const devHalf = (folder) => sha1(`skilldeck-routing-split:${folder}`)[0] < 128;
const order = (folder) => sha1(`skilldeck-${round}:${folder}`).toString('hex');

/** The frontmatter name, or null when the skill has no usable name and description. */
function nameOf(folder) {
  const file = path.join(corpus, folder, 'SKILL.md');
  if (!fs.existsSync(file)) return null;
  const front = /^---\n([\s\S]*?)\n---/.exec(fs.readFileSync(file, 'utf8'))?.[1];
  if (!front) return null;
  const name = /^name:\s*(.+)$/m
    .exec(front)?.[1]
    ?.trim()
    .replace(/^['"]|['"]$/g, '');
  const description = /^description:\s*(.+)$/m.exec(front)?.[1]?.trim() ?? '';
  const folded = /^[>|]/.test(description);
  return name && (folded || description.length >= 40) ? name : null;
}

const taken = new Set();
function pick(folders, count) {
  const out = [];
  for (const folder of [...folders].sort((a, b) => order(a).localeCompare(order(b)))) {
    if (out.length >= count) break;
    const name = nameOf(folder);
    if (!name || taken.has(name)) continue;
    taken.add(name);
    out.push(folder);
  }
  return out;
}

const all = fs
  .readdirSync(corpus)
  .flatMap((repo) => fs.readdirSync(path.join(corpus, repo)).map((skill) => `${repo}/${skill}`));
const small = new Set([
  'ChromeDevTools__chrome-devtools-mcp-npm-1.8.0',
  'anthropics__skills',
  'obra__superpowers',
  'openai__skills',
  'openclaw__clawhub',
  'openclaw__openclaw-npm-2026.9.6',
  'vercel-labs__agent-skills',
]);
const fresh = (folder) => !used.has(folder);
const wellKnown = all.filter((f) => small.has(f.split('/')[0]) && skillset.has(f) && devHalf(f) && fresh(f));
const composio = all.filter((f) => f.startsWith('ComposioHQ__') && !skillset.has(f) && fresh(f));
const archive = all.filter((f) => f.startsWith('openclaw__skills/') && !skillset.has(f) && fresh(f));
const known = pick(wellKnown, 30);
const chosen = [...known, ...pick(composio, 20), ...pick(archive, 126 - 20 - known.length)];
// Once the archive runs short of skills with a usable description (round 31), more Composio
// toolkits fill the round; rounds that were full pick as before.
if (chosen.length < 126)
  chosen.push(
    ...pick(
      composio.filter((f) => !chosen.includes(f)),
      126 - chosen.length,
    ),
  );
process.stderr.write(
  `well-known ${known.length} of ${wellKnown.length} unused, Composio ${composio.length}, archive ${archive.length}\n`,
);
process.stdout.write(`${chosen.sort().join('\n')}\n`);
