/** A Monaco model URI per skill file, so each keeps its own model and view state. */
export const modelPath = (skillId: string, file: string): string =>
  `inmemory://skill/${encodeURIComponent(skillId)}/${file.split('/').map(encodeURIComponent).join('/')}`;
