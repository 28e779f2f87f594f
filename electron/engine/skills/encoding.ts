/**
 * Every client and the reference validator read SKILL.md as UTF-8; text in another
 * encoding is read as well as it can be and gets a warning saying so.
 */
import { isUtf8 } from 'node:buffer';
import type { Problem } from '../../../shared/contract';
import { warning } from './problems';

/** A whole skill file as text, with what was wrong with its encoding. */
export function decodeSkillFile(bytes: Uint8Array, fileName: string): { text: string; problem?: Problem } {
  const order = utf16Order(bytes);
  if (order) return decodeUtf16(bytes, order, fileName);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return { text, problem: utf8Problem(bytes, fileName) };
}

/**
 * The byte order when `bytes` start with a UTF-16 byte-order mark (Windows Notepad's
 * "Unicode"). FF FE 00 00 is UTF-32's mark, left to the UTF-8 check.
 */
export function utf16Order(bytes: Uint8Array): 'le' | 'be' | undefined {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe && !(bytes[2] === 0 && bytes[3] === 0)) return 'le';
  return undefined;
}

/** UTF-16 decoded (the mark dropped, bad surrogates as U+FFFD), with a warning to save it as UTF-8. */
function decodeUtf16(bytes: Uint8Array, order: 'le' | 'be', fileName: string) {
  const text = new TextDecoder(`utf-16${order}`).decode(bytes);
  const endian = order === 'le' ? 'little-endian' : 'big-endian';
  const problem = warning(
    'utf16',
    `${fileName} is saved as UTF-16 (${endian}, with a byte-order mark), as Windows Notepad saves "Unicode" text. SkillDeck read it, but \`skills validate\` and other tools need UTF-8: save it as UTF-8.`,
    { line: 1 },
  );
  return { text, problem };
}

/** A warning when `bytes` are not valid UTF-8 (they decode with U+FFFD, as in every other client). */
export function utf8Problem(bytes: Uint8Array, fileName: string): Problem | undefined {
  return isUtf8(bytes) ? undefined : notUtf8(bytes, fileName);
}

function notUtf8(bytes: Uint8Array, fileName: string): Problem {
  const at = Math.max(0, firstInvalidUtf8(bytes));
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 10) line++;
  const byte = bytes[at];
  const hex = `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  const guess = guessEncoding(bytes);
  // 0xA0–0xFF are the same characters in Latin-1 and Windows-1252.
  const example = guess === LATIN1 && byte >= 0xa0 ? `, where ${hex} is "${String.fromCharCode(byte)}"` : '';
  const looks = guess ? `; it looks like ${guess}${example}` : '';
  return warning(
    'not-utf8',
    `${fileName} is not valid UTF-8 (byte ${hex} on line ${line}${looks}). Those bytes show as �; save the file as UTF-8, which \`skills validate\` and other tools require.`,
    { line },
  );
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629), or -1. */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const n = sequenceLength(b, i);
    if (n === 0) return i;
    i += n;
  }
  return -1;
}

/** Length of the well-formed UTF-8 sequence at `i`, or 0 when there is none. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  for (let k = 1; k < n; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return 0;
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF.
  const c1 = b[i + 1];
  if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return 0;
  if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return 0;
  return n;
}

const LATIN1 = 'Latin-1 (Windows-1252)';

/**
 * A cheap guess from the runs of non-ASCII bytes that hold a byte UTF-8 refuses: Latin-1
 * text has its accented letters alone between ASCII ones ("caf\xE9"), double-byte encodings
 * write each character as two bytes. Undefined when neither fits.
 */
function guessEncoding(b: Uint8Array): string | undefined {
  let single = 0;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < b.length;) {
    if (b[i] < 0x80) {
      i++;
      continue;
    }
    let j = i;
    let invalid = false;
    while (j < b.length && b[j] >= 0x80) {
      const n = sequenceLength(b, j);
      if (n === 0) invalid = true;
      j += Math.max(n, 1);
    }
    const length = Math.min(j, b.length) - i;
    if (invalid) {
      if (length === 1) single++;
      else if (length % 2 === 0) even++;
      else odd++;
    }
    i = j;
  }
  if (single > 0 && even === 0 && odd === 0) return LATIN1;
  if (even > 0 && single === 0 && odd === 0) return 'a double-byte encoding such as GBK, Big5 or Shift_JIS';
  return undefined;
}
