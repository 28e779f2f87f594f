import { TICKER } from '../../../shared/contract';
import { VIA_WEIGHT, type QueryGroup, type Variant } from './analyze';
import { lemmaOf, stem } from './text';

/**
 * Things users paste that say what they want done with them though no word names it: "where in
 * the world is 203.0.113.9?" is an IP lookup, "who deployed 0x5564…F561?" an Ethereum contract, a
 * bare "0 7 * * 1-5" a cron schedule, "is $NVDA a buy?" a stock. Each recognized kind adds one
 * query word that stands for the words a skill for it uses, at the domain lexicon's weight
 * (analyze.ts VIA_WEIGHT.entity). Only shapes that mean one thing: an e-mail address or a URL
 * says nothing about what to do.
 */
interface EntityKind {
  /** What the score panel calls it. */
  name: string;
  re: RegExp;
  /**
   * Read in the message as typed, not folded (a ticker is capitals), and left in the text: its
   * letters are no skill's words anyway.
   */
  cased?: true;
  /** Rejects look-alikes the pattern alone would take ("1.2.300.4" is no IP address). */
  accept?: (match: string) => boolean;
  /** Words the message must also have, where the shape alone could be something else. */
  context?: RegExp;
  /** The words a skill for it says. */
  words: string[];
}

const octets = (m: string) =>
  m
    .split('/')[0]
    .split('.')
    .every((o) => Number(o) <= 255 && (o === '0' || !o.startsWith('0')));

const SHELL_VARIABLES = new Set([
  'PATH',
  'HOME',
  'USER',
  'SHELL',
  'PWD',
  'TERM',
  'LANG',
  'HOST',
  'UID',
  'IFS',
  'TZ',
  'MAIL',
]);

const ENTITY_KINDS: EntityKind[] = [
  {
    name: 'IP address',
    // Not a version or a section number: no letter or dot glued on either side.
    re: /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?(?![\w.]|\.\d)/g,
    accept: octets,
    words: ['ip'],
  },
  {
    name: 'IPv6 address',
    re: /(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi,
    // Clock times (12:30:45) have no hex letter and no "::".
    accept: (m) => (m.includes('::') || /[a-f]/i.test(m)) && m.split(':').length >= 3,
    words: ['ip', 'ipv6'],
  },
  {
    name: 'Ethereum address',
    re: /(?<![\w])0x[0-9a-f]{40}(?![0-9a-z])/gi,
    words: ['ethereum', 'evm', 'contract', 'wallet'],
  },
  {
    name: 'transaction hash',
    re: /(?<![\w])0x[0-9a-f]{64}(?![0-9a-z])/gi,
    words: ['ethereum', 'evm', 'transaction'],
  },
  {
    // $TSLA, $BRK.B (recall.ts reads them as no skill to force: isAmountOrTicker).
    name: 'stock ticker',
    re: new RegExp(String.raw`(?<![\w$])\$${TICKER}(?![\w.])`, 'g'),
    cased: true,
    // $PATH, $HOME: shell variables are capitals too.
    accept: (m) => !SHELL_VARIABLES.has(m.slice(1)),
    words: ['stock', 'ticker', 'quote'],
  },
  {
    // 48.8566, 2.3522 — two decimals with at least three places, the second within ±180.
    name: 'coordinates',
    re: /(?<![\w.])-?\d{1,2}\.\d{3,},\s?-?\d{1,3}\.\d{3,}(?![\w.])/g,
    accept: (m) => m.split(',').every((x, i) => Math.abs(Number(x)) <= (i === 0 ? 90 : 180)),
    words: ['location', 'coordinates', 'latitude', 'longitude', 'nearby'],
  },
  {
    name: 'subreddit',
    re: /(?<![\w/])\/?r\/[a-z0-9_]{2,21}(?![\w/])/gi,
    words: ['reddit', 'subreddit'],
  },
  {
    // UA1523, LH400: an airline's two letters and a number, in a message about a flight's state
    // (GPUs and parts — RX7900, MX500 — share the shape, not the words).
    name: 'flight number',
    re: /(?<![\w-])[A-Z]{2}\s?\d{2,4}(?![\w-])/g,
    cased: true,
    context:
      /\b(?:on time|delay(?:ed|s)?|late|land(?:s|ed|ing)?|depart(?:s|ed|ing|ure)?|arriv(?:e|es|ed|al|ing)|board(?:s|ed|ing)|gate|terminal|airport|layover|connection|flight|takes? off|status|track|cancel(?:l?ed)?)\b|航班|延误|起飞|降落|登机|到达|准点/iu,
    words: ['flight', 'airline'],
  },
  {
    // PAY-482, ENG-1234: a project's key and a number, as Jira and Linear name issues. Not the
    // standards and versions that share the shape (CVE-2024-1234, ISO-8601, GPT-4, COVID-19).
    name: 'issue key',
    re: /(?<![\w-])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-])/g,
    cased: true,
    accept: (m) =>
      !/^(?:CVE|ISO|RFC|GPT|COVID|SHA|UTF|PEP|ES|MP|SARS|HTTP|TLS|SSL|AES|RSA|ECMA|IEEE|IPV|IP|EN|DIN|ANSI|NIST|PCI|SOC|RS|USB|HDMI|DDR|PCIE|WPA|WIFI|LTE|MD|CSS|HTML|IOS|WIN)-/u.test(
        m,
      ) && !/^[A-Z]+\d+-/u.test(m),
    words: ['issue', 'ticket'],
  },
  {
    name: 'cron expression',
    // Five fields of digits, stars, steps, ranges and lists, one of them with a star.
    re: /(?<![\w*/,-])(?:[\d*][\d*/,-]*\s+){4}[\d*][\d*/,-]*(?![\w*/,-])/g,
    accept: (m) => m.includes('*'),
    words: ['cron', 'crontab'],
  },
];

/** A kind's variants, built once (lists are shared and never mutated, as analyze.ts's are). */
const kindVariants = new Map<EntityKind, Variant[]>();
function variantsOf(kind: EntityKind): Variant[] {
  let variants = kindVariants.get(kind);
  if (!variants) {
    variants = kind.words.map((word) => ({
      term: stem(lemmaOf(word)),
      weight: VIA_WEIGHT.entity,
      via: 'entity',
      shown: word,
    }));
    kindVariants.set(kind, variants);
  }
  return variants;
}

/** Long matches are quoted by their start in the score panel. */
const quote = (s: string) => (s.length > 14 ? `${s.slice(0, 10)}…` : s);

/**
 * One query word per kind of thing recognized in the message (in the order of ENTITY_KINDS), and
 * its folded text with every recognized thing blanked out: its digits ("203", "0") are no words.
 */
export function entityGroups(typed: string, folded = typed): { groups: QueryGroup[]; rest: string } {
  const groups: QueryGroup[] = [];
  let rest = folded;
  for (const kind of ENTITY_KINDS) {
    if (kind.context && !kind.context.test(typed)) continue;
    let found: string | null = null;
    if (kind.cased)
      found = [...typed.matchAll(kind.re)].find((m) => kind.accept?.(m[0]) ?? true)?.[0] ?? null;
    else
      rest = rest.replace(kind.re, (m) => {
        if (!(kind.accept?.(m.trim()) ?? true)) return m;
        found ??= m.trim();
        return ' '.repeat(m.length);
      });
    if (found === null) continue;
    const variants = variantsOf(kind);
    groups.push({
      text: `entity:${kind.name}`,
      surface: `${quote(found)} (${kind.name})`,
      variants,
      weight: 1,
    });
  }
  return { groups, rest };
}
