import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InstallSource, UPLOAD_MAX_BASE64, UPLOAD_MAX_BYTES } from '../../../shared/contract';
import { skillMd, isolatedEngines } from '../../testing/fixtures';
import { writeZip, type ZipEntry } from '../../testing/zips';

// An archive dropped on a browser page arrives as bytes (`kind: 'upload'`): it is decoded
// inside the preview's staging dir and then takes exactly the `archive` path.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());
const setup = () => engines.open();

/** A zip made with yazl, as base64 (what the renderer sends). */
async function zipBase64(root: string, entries: ZipEntry[]): Promise<string> {
  const file = path.join(root, `made-${Math.random().toString(36).slice(2)}.zip`);
  await writeZip(file, entries);
  const data = fs.readFileSync(file).toString('base64');
  fs.rmSync(file);
  return data;
}

/** Every path under `dir`. */
const walk = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : [];

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error & { code?: string },
  );
}

describe('install from uploaded bytes', () => {
  it('previews an uploaded zip under its file name, then installs it', async () => {
    const { root, home, engine } = await setup();
    const dataBase64 = await zipBase64(root, [
      { name: 'SKILL.md', data: skillMd('uploaded', 'A skill sent as bytes.') },
      { name: 'scripts/run.sh', data: 'echo hi\n', mode: 0o100755 },
    ]);
    const source = { kind: 'upload' as const, fileName: 'uploaded.skill', dataBase64 };
    expect(InstallSource.safeParse(source).success).toBe(true);
    const preview = await engine.install.preview(source, 'upload-test-1');
    expect(preview.source).toEqual({ kind: 'upload', fileName: 'uploaded.skill' });
    expect(preview.candidates.map((c) => c.name)).toEqual(['uploaded']);
    expect(preview.candidates[0].files.map((f) => f.path).sort()).toEqual(['SKILL.md', 'scripts/run.sh']);
    // Only the extracted tree is staged: the uploaded bytes are gone once extracted.
    const staged = walk(path.join(home, 'staging', 'upload-test-1'));
    expect(staged.some((p) => p.startsWith('upload'))).toBe(false);
    const result = await engine.install.commit(preview.previewId, [
      { name: 'uploaded', onConflict: 'cancel' },
    ]);
    expect(result.installed[0]).toMatchObject({
      name: 'uploaded',
      path: path.join(home, 'skills', 'uploaded'),
    });
    expect(fs.readFileSync(path.join(home, 'skills/uploaded/scripts/run.sh'), 'utf8')).toBe('echo hi\n');
    expect(walk(path.join(home, 'staging'))).toEqual([]);
  });

  it('refuses a hostile upload (zip slip) and leaves nothing behind', async () => {
    const { root, home, engine } = await setup();
    const evil = '../../escaped.txt';
    const dataBase64 = await zipBase64(root, [
      { name: 'SKILL.md', data: skillMd('victim', 'Hides something.') },
      { name: 'x'.repeat(evil.length), rawName: evil, data: 'pwned' },
    ]);
    const error = await rejection(
      engine.install.preview({ kind: 'upload', fileName: 'evil.zip', dataBase64 }),
    );
    expect(error.code).toBe('forbidden');
    expect(error.message).toMatch(/climbs out of the target/);
    expect(walk(path.join(home, 'staging'))).toEqual([]);
    expect(fs.existsSync(path.join(home, 'skills'))).toBe(false);
    expect(fs.existsSync(path.join(home, 'escaped.txt'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'escaped.txt'))).toBe(false);
  });

  it('refuses bytes that are not a zip, text that is not base64, and bad file names', async () => {
    const { home, engine } = await setup();
    const notZip = await rejection(
      engine.install.preview({
        kind: 'upload',
        fileName: 'notes.zip',
        dataBase64: Buffer.from('just some text').toString('base64'),
      }),
    );
    expect(notZip.code).toBe('forbidden');
    expect(notZip.message).toMatch(/notes\.zip is not a readable zip archive/);
    const notBase64 = await rejection(
      engine.install.preview({ kind: 'upload', fileName: 'a.zip', dataBase64: 'not base64!' }),
    );
    expect(notBase64.code).toBe('invalid_params');
    const badName = await rejection(
      engine.install.preview({ kind: 'upload', fileName: '../a.zip', dataBase64: 'AAAA' }),
    );
    expect(badName.code).toBe('invalid_params');
    expect(InstallSource.safeParse({ kind: 'upload', fileName: 'x/a.zip', dataBase64: 'AAAA' }).success).toBe(
      false,
    );
    expect(InstallSource.safeParse({ kind: 'upload', fileName: 'a.txt', dataBase64: 'AAAA' }).success).toBe(
      false,
    );
    expect(walk(path.join(home, 'staging'))).toEqual([]);
  });

  it('rejects an oversized payload in the schema and in the engine', async () => {
    const { home, engine } = await setup();
    const big = 'A'.repeat(UPLOAD_MAX_BASE64 + 4);
    const parsed = InstallSource.safeParse({ kind: 'upload', fileName: 'big.zip', dataBase64: big });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('archives over 3 MB: paste their path instead');
    const error = await rejection(
      engine.install.preview({ kind: 'upload', fileName: 'big.zip', dataBase64: big }),
    );
    expect(error.code).toBe('forbidden');
    expect(error.message).toMatch(/paste their path instead/);
    expect(UPLOAD_MAX_BYTES).toBe(3_000_000);
    expect(walk(path.join(home, 'staging'))).toEqual([]);
  });
});
