import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from './testing/fixtures';
import { DEFAULT_STATE, loadWindowState, saveWindowState } from './windowState';

const root = tempDir();
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

it('remembers bounds across launches', () => {
  const file = path.join(root, 'state.json');
  saveWindowState(file, { bounds: { x: 100, y: 80, width: 1000, height: 700 }, maximized: true });
  expect(loadWindowState(file, screen)).toEqual({
    bounds: { x: 100, y: 80, width: 1000, height: 700 },
    maximized: true,
    restored: true,
  });
});

it('falls back to defaults for a missing, corrupt or off-screen state', () => {
  expect(loadWindowState(path.join(root, 'none.json'), screen).restored).toBe(false);
  const corrupt = path.join(root, 'corrupt.json');
  fs.writeFileSync(corrupt, '{"bounds":');
  expect(loadWindowState(corrupt, screen)).toMatchObject({ ...DEFAULT_STATE, restored: false });
  const offscreen = path.join(root, 'off.json');
  saveWindowState(offscreen, { bounds: { x: 4000, y: 0, width: 1000, height: 700 }, maximized: false });
  expect(loadWindowState(offscreen, screen).restored).toBe(false);
});
