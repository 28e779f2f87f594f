import { verbalForms } from './lexdata';
import { fold } from './text';

/**
 * What the user typed as a name or a site: a product is often named by how it is typed (capitals
 * where a plain word has none, a site's domain), and a pasted link by its site.
 */

/**
 * A word typed the way names are: capitals and small letters mixed (Docmosis, SimilarWeb, iCIMS,
 * 2Chat, 1Password), letters with digits (U301), or five capitals or more. Not PDF, CSV, AWS:
 * short capitals are as often a file type or an acronym as a product.
 */
const CASED_RE =
  /(?<![A-Za-z0-9])(?:(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])[A-Za-z0-9][A-Za-z0-9]{2,}|[A-Z]+[0-9][A-Z0-9]*|[A-Z]{5,})(?![A-Za-z0-9])/gu;

/** The words of a message typed the way names are (CASED_RE), as typed. */
export const typedNames = (text: string): string[] => Array.from(text.matchAll(CASED_RE), (m) => m[0]);

/** An e-mail address: whose it is, not what to do (jenna@brightlane.io is no word "io"). */
const EMAIL_RE = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu;

/** Top-level domains products are named by (Files.com, Polygon.io); not a file's extension (.py, .md). */
const PRODUCT_TLD = 'com|io|ai|do|so|app|dev|co|me|ly|fm|net|org|xyz|tv|gg|cc|to|us|is|im|it';
/** Top-level domains of an address: those, and countries' (shop.example.de/…). */
const TLD = `(?:${PRODUCT_TLD}|de|uk|fr|jp|cn|eu|ca|au)`;

/**
 * A product named by its site (Files.com, Polygon.io, Scrape.do, Monday.com): a word glued to a
 * top-level domain that products use, not a file's extension (.py, .md) nor a pasted address.
 */
const SITE_NAME_RE = new RegExp(
  String.raw`(?<![\w./@-])([A-Za-z][A-Za-z0-9-]*)\.(?:${PRODUCT_TLD})(?![\w.-]*[\w/])`,
  'gu',
);

/** What an address runs on to: anything up to a space, a quote or a bracket. */
const ADDRESS_TAIL = '[^\\s<>"\'`“”‘’（）()[\\]]';

/**
 * A web address as typed: scheme or www, then anything up to a space, a quote or a bracket; or a
 * bare host that is an address, not a product's name: a subdomain (api.shopfront.io) or a path
 * (example.com/blog/…). Files.com and notion.so stay: a product is named by its site so.
 */
const URL_RE = new RegExp(
  [
    String.raw`\b(?:https?:\/\/|www\.)${ADDRESS_TAIL}+`,
    String.raw`(?<![\w.@/-])(?:[a-z0-9-]+\.){2,}${TLD}(?:\/${ADDRESS_TAIL}*)?(?![\w-])`,
    String.raw`(?<![\w.@/-])[a-z0-9-]+\.${TLD}\/${ADDRESS_TAIL}*`,
  ].join('|'),
  'giu',
);

/**
 * The message with what it pasted reduced to what it says. An e-mail address goes: it says whose,
 * not what to do. A web address says which site: its path and query are the site's words
 * (zillow.com/homes/… is no request for a smart-home skill), so only the site's own name stays —
 * the host without www and its top-level domain (https://www.rome2rio.com/… → rome2rio).
 */
export function siteNames(text: string): string {
  const noMail = text.replace(EMAIL_RE, ' ');
  return noMail.replace(URL_RE, (typed) => {
    // A sentence's comma or full stop after the address is the sentence's.
    const [, url, after] = /^(.*?)([.,;:!?]*)$/su.exec(typed) ?? [typed, typed, ''];
    const host = url.replace(/^(?:https?:\/\/)?(?:www\.)?/iu, '').split(/[/?#:]/u)[0] ?? '';
    const labels = host.split('.').filter(Boolean);
    return ` ${labels.slice(0, Math.max(1, labels.length - 1)).join(' ')} ${after}`;
  });
}

/**
 * The products a message names by their site, folded (Files.com → files). Capitalized only: a site
 * typed in small letters (block tiktok.com, notion.so vs coda.io) is as often the thing to act on
 * as the tool to use.
 */
export function typedSites(text: string): Set<string> {
  return new Set(
    Array.from(text.matchAll(SITE_NAME_RE), (m) => m[1])
      .filter((name) => /^[A-Z]/u.test(name))
      .map(fold),
  );
}

/**
 * An irregular verb or adjective form the user capitalized inside a sentence ("a map in Felt",
 * "add Better Auth"): a name, which also meets a skill's name as written (nameTerms), besides
 * its lemma. "I felt sick" stays a form of feel.
 */
export function namedAsTyped(text: string, word: string): boolean {
  if (!verbalForms().has(word)) return false;
  const capitalized = new RegExp(`(?<![.!?]\\s*|^\\s*)\\b${word[0].toUpperCase()}${word.slice(1)}\\b`, 'u');
  return capitalized.test(text);
}

/** The words the message has only in small letters (hubspot, not HubSpot or PRD), in one pass. */
export function lowercaseOnly(text: string): Set<string> {
  const lower = new Set<string>();
  const cased = new Set<string>();
  for (const [typed] of text.matchAll(/[A-Za-z0-9]+/gu)) {
    const word = typed.toLowerCase();
    if (typed === word) lower.add(word);
    else cased.add(word);
  }
  for (const word of cased) lower.delete(word);
  return lower;
}

/**
 * Words typed glued to another by a hyphen or an underscore (redis-cache, api_gateway_prod): an
 * identifier the user named, not prose, so none of its parts is a typo of a skill's word.
 */
export function gluedWords(text: string): Set<string> {
  const glued = new Set<string>();
  for (const [token] of text.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:[-_][\p{L}\p{N}]+)+/gu))
    for (const part of token.toLowerCase().split(/[-_]/)) glued.add(part);
  return glued;
}
