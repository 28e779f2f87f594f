import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../atomic';

/**
 * Encrypts secrets with the OS keychain. Electron main passes one built on `safeStorage`;
 * the CLI and browser mode have none and fall back to a 0600 file (DESIGN §6).
 */
export interface SecretCipher {
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
  available(): boolean;
}

const Entry = z.discriminatedUnion('encoding', [
  z.object({ encoding: z.literal('keychain'), data: z.string() }),
  z.object({ encoding: z.literal('plain'), value: z.string() }),
]);
type Entry = z.infer<typeof Entry>;
const SecretsFile = z.object({ version: z.literal(1), entries: z.record(z.string(), Entry) });

/** Only the owner may read or write the file, whatever the process umask. */
const FILE_MODE = 0o600;

/**
 * `$SKILLDECK_HOME/secrets.json`, mode 0600, written atomically. With a cipher, values are
 * stored encrypted by it; without, as plain text that only the owner can read. Values never
 * leave this class except through `get`, which only the model provider calls.
 */
export class SecretStore {
  private readonly file: string;

  constructor(
    home: string,
    private readonly cipher?: SecretCipher,
  ) {
    this.file = path.join(home, 'secrets.json');
  }

  /** Where a value written now ends up. */
  get storage(): 'keychain' | 'file' {
    return this.cipherReady() ? 'keychain' : 'file';
  }

  /** The stored value, or undefined when there is none or it cannot be decrypted here. */
  get(name: string): string | undefined {
    return this.lookup(name).value;
  }

  /** The stored value, or why a value that is there cannot be used (never the value itself). */
  lookup(name: string): { value: string | undefined; problem: string | null } {
    const { entries, problem } = this.read();
    const entry = entries[name];
    if (!entry) return { value: undefined, problem };
    if (entry.encoding === 'plain') return { value: entry.value, problem: null };
    if (!this.cipherReady()) {
      return {
        value: undefined,
        problem: 'A key is stored encrypted by the desktop app’s keychain, which this process cannot open.',
      };
    }
    try {
      return { value: this.cipher!.decrypt(Buffer.from(entry.data, 'base64')), problem: null };
    } catch {
      return {
        value: undefined,
        problem: 'The stored key could not be decrypted (the keychain changed); store it again.',
      };
    }
  }

  set(name: string, value: string): void {
    const { entries } = this.read();
    entries[name] = this.encode(value);
    this.write(entries);
  }

  /** Returns whether there was something to delete. */
  delete(name: string): boolean {
    const { entries } = this.read();
    if (!(name in entries)) return false;
    delete entries[name];
    this.write(entries);
    return true;
  }

  private cipherReady(): boolean {
    try {
      return this.cipher?.available() ?? false;
    } catch {
      return false;
    }
  }

  private encode(value: string): Entry {
    if (!this.cipherReady()) return { encoding: 'plain', value };
    return { encoding: 'keychain', data: this.cipher!.encrypt(value).toString('base64') };
  }

  private read(): { entries: Record<string, Entry>; problem: string | null } {
    let text: string;
    try {
      // Someone widened the mode (a copy, a restore, a chmod): take it back before reading.
      if (process.platform !== 'win32' && (fs.statSync(this.file).mode & 0o077) !== 0) {
        fs.chmodSync(this.file, FILE_MODE);
      }
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return { entries: {}, problem: null };
    }
    try {
      const parsed = SecretsFile.safeParse(JSON.parse(text));
      if (parsed.success) return { entries: parsed.data.entries, problem: null };
    } catch {
      // Fall through: reported, and the next write replaces the file.
    }
    return { entries: {}, problem: `${this.file} is unreadable; store the key again.` };
  }

  private write(entries: Record<string, Entry>): void {
    // Rewriting everything lets plain entries written before a keychain was available move into it.
    const upgraded = Object.fromEntries(
      Object.entries(entries).map(([name, entry]) => [
        name,
        entry.encoding === 'plain' && this.cipherReady() ? this.encode(entry.value) : entry,
      ]),
    );
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, entries: upgraded }, null, 2)}\n`);
    if (process.platform !== 'win32') fs.chmodSync(this.file, FILE_MODE);
  }
}
