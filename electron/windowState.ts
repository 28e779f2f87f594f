import fs from 'node:fs';
import { writeFileAtomicSync } from './engine/atomic';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface WindowState {
  bounds: Bounds;
  maximized: boolean;
}

export const DEFAULT_STATE: WindowState = {
  bounds: { x: 0, y: 0, width: 1280, height: 820 },
  maximized: false,
};

const isBounds = (value: unknown): value is Bounds =>
  !!value &&
  ['x', 'y', 'width', 'height'].every((key) => Number.isFinite((value as Record<string, unknown>)[key]));

/**
 * Restore the last bounds if they still overlap a display by a usable margin; a monitor
 * that was unplugged must not leave the window off-screen.
 */
export function loadWindowState(file: string, workAreas: Bounds[]): WindowState & { restored: boolean } {
  let saved: unknown;
  try {
    saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { ...DEFAULT_STATE, restored: false };
  }
  const bounds = (saved as { bounds?: unknown })?.bounds;
  if (!isBounds(bounds) || bounds.width < 400 || bounds.height < 300)
    return { ...DEFAULT_STATE, restored: false };
  const visible = workAreas.some(
    (area) =>
      bounds.x + 100 <= area.x + area.width &&
      bounds.x + bounds.width - 100 >= area.x &&
      bounds.y >= area.y - 10 &&
      bounds.y + 50 <= area.y + area.height,
  );
  if (!visible) return { ...DEFAULT_STATE, restored: false };
  return { bounds, maximized: (saved as { maximized?: unknown }).maximized === true, restored: true };
}

export function saveWindowState(file: string, state: WindowState): void {
  writeFileAtomicSync(file, JSON.stringify(state));
}
