import fs from 'node:fs';
import yazl from 'yazl';

/** One zip entry for tests: text or bytes, an optional Unix mode (links, FIFOs), a name to patch in. */
export interface ZipEntry {
  /** A name ending in `/` is a folder entry (`data` is ignored). */
  name: string;
  data: string | Buffer;
  mode?: number;
  /** Stored instead of deflated. */
  store?: boolean;
  /**
   * The name to write into the archive's bytes afterwards, same length as `name`: lets a
   * test make entries yazl refuses to write (absolute paths, `..`).
   */
  rawName?: string;
}

/** Writes a zip at `file` (yazl), then patches raw names into both headers. */
export async function writeZip(file: string, entries: ZipEntry[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    const mode = e.mode !== undefined ? { mode: e.mode } : {};
    if (e.name.endsWith('/')) {
      zip.addEmptyDirectory(e.name, mode);
      continue;
    }
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    zip.addBuffer(data, e.name, { ...mode, compress: !e.store });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes: Buffer = Buffer.concat(chunks);
  for (const e of entries) {
    if (!e.rawName) continue;
    if (Buffer.byteLength(e.rawName) !== Buffer.byteLength(e.name))
      throw new Error('rawName must match name length');
    bytes = replaceAll(bytes, Buffer.from(e.name), Buffer.from(e.rawName));
  }
  fs.writeFileSync(file, bytes);
}

function replaceAll(haystack: Buffer, from: Buffer, to: Buffer): Buffer {
  const out = Buffer.from(haystack);
  let at = out.indexOf(from);
  while (at !== -1) {
    to.copy(out, at);
    at = out.indexOf(from, at + from.length);
  }
  return out;
}

/** Rewrites the central directory record of entry `name` in place (`at` is its signature). */
function patchCentral(file: string, name: string, patch: (bytes: Buffer, at: number) => void): void {
  const bytes = fs.readFileSync(file);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = bytes.indexOf(signature); at !== -1; at = bytes.indexOf(signature, at + 4)) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.toString('utf8', at + 46, at + 46 + nameLength) === name) patch(bytes, at);
  }
  fs.writeFileSync(file, bytes);
}

/** A lying header: the central directory's uncompressed size of entry `name` becomes `size`. */
export function lieAboutSize(file: string, name: string, size: number): void {
  patchCentral(file, name, (bytes, at) => bytes.writeUInt32LE(size, at + 24));
}

/** The system that made entry `name` (3 Unix, 19 macOS, 0 MS-DOS): only Unix-like ones carry st_mode. */
export function setMadeBy(file: string, name: string, system: number): void {
  patchCentral(file, name, (bytes, at) => bytes.writeUInt8(system, at + 5));
}

/** Sets the "encrypted" flag of entry `name` (general purpose bit 0). */
export function markEncrypted(file: string, name: string): void {
  patchCentral(file, name, (bytes, at) => bytes.writeUInt16LE(bytes.readUInt16LE(at + 8) | 1, at + 8));
}
