import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_MAX_BYTES, type InstallSource } from '../../../shared/contract';
import { EngineError } from '../errors';
import { extractArchive, type Progress } from './archive';
import { copyFolder } from './folder';
import { cloneRepo } from './git';
import { isInside, refused, removeTree } from './limits';

export type PhaseProgress = (
  phase: 'cloning' | 'extracting' | 'copying',
  done: number,
  total: number,
  message: string,
) => void;

/**
 * Brings a source into `stagingDir/tree` with every safety rule applied (paths, links,
 * special files, caps). Nothing outside `stagingDir` is written; on failure `tree` is gone.
 */
export async function stageSource(
  source: InstallSource,
  stagingDir: string,
  progress: PhaseProgress,
): Promise<string> {
  const tree = path.join(stagingDir, 'tree');
  const phase =
    (name: 'cloning' | 'extracting' | 'copying'): Progress =>
    (done, total, message) =>
      progress(name, done, total, message);
  if (source.kind === 'folder') {
    const real = await fsp.realpath(path.resolve(source.path)).catch(() => path.resolve(source.path));
    // Copying a folder that holds the staging dir would copy its own copy, over and over.
    if (isInside(real, fs.realpathSync(stagingDir)))
      throw refused(`${source.path} holds SkillDeck's own data folder; pick the skill's folder itself.`);
    await copyFolder(path.resolve(source.path), tree, phase('copying'));
  } else if (source.kind === 'archive') {
    const file = path.resolve(source.path);
    const st = await fsp.stat(file).catch(() => undefined);
    if (!st)
      throw new EngineError(
        'not_found',
        `Install refused: ${file} does not exist; give a skill folder, a .zip or .skill archive, or a git URL.`,
      );
    if (!st.isFile()) throw refused(`${file} is not a file.`);
    if (!/\.(zip|skill)$/i.test(file))
      throw refused(`${path.basename(file)} is not a .zip or .skill archive.`);
    await extractArchive(file, tree, phase('extracting'));
  } else if (source.kind === 'upload') {
    // The bytes land inside this preview's staging dir, then take the `archive` path above.
    const file = await writeUpload(source.fileName, source.dataBase64, stagingDir);
    try {
      await extractArchive(file, tree, phase('extracting'));
    } finally {
      await removeTree(path.dirname(file));
    }
  } else {
    const clone = path.join(stagingDir, 'clone');
    try {
      const from = await cloneRepo(source.url, source.ref, source.subpath, clone, phase('cloning'));
      const real = await fsp.realpath(from).catch(() => undefined);
      // Only a sub-path can be missing: the checkout itself exists once the clone succeeded.
      if (!real) throw refused(`${source.subpath} does not exist in ${source.url}.`);
      if (!isInside(fs.realpathSync(clone), real))
        throw refused(`${JSON.stringify(source.subpath)} is a link that leads outside the repository.`);
      // The checkout gets the folder rules too: links out of the skill, FIFOs, caps.
      await copyFolder(from, tree, phase('copying'));
    } finally {
      await removeTree(clone);
    }
  }
  return tree;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes an uploaded archive into `stagingDir/upload/<fileName>` and returns that path.
 * Checked again here (the engine can be called without the contract's schema): a bare
 * `.zip` / `.skill` name, strict base64, at most `UPLOAD_MAX_BYTES`.
 */
async function writeUpload(fileName: string, dataBase64: string, stagingDir: string): Promise<string> {
  const name = path.basename(fileName);
  if (name !== fileName || !/^[^\\\0]+\.(zip|skill)$/i.test(name))
    throw new EngineError(
      'invalid_params',
      `${JSON.stringify(fileName.slice(0, 200))} is not a .zip or .skill file name.`,
    );
  if (dataBase64.length % 4 !== 0 || !BASE64.test(dataBase64))
    throw new EngineError('invalid_params', `${name}: the uploaded data is not valid base64.`);
  const bytes = Buffer.from(dataBase64, 'base64');
  if (bytes.length > UPLOAD_MAX_BYTES)
    throw refused(`${name} is larger than the upload limit; archives over 3 MB: paste their path instead.`);
  // A fresh folder (mkdir fails if it exists) and a bare name: the file lands nowhere else.
  const dir = path.join(stagingDir, 'upload');
  await fsp.mkdir(dir);
  const file = path.join(dir, name);
  await fsp.writeFile(file, bytes);
  return file;
}
