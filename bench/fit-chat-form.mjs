// Refits the router's chat-form model (electron/engine/routing/chatForm.ts) on the dev half of the
// third-party dev set and the unseen rounds (never the held-out half) and writes
// electron/engine/routing/data/chat-form.tsv. Run `npm run build:node` first; it takes seconds.
// The quality test fails until the table is refitted after the labelled queries change.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { fitChatForm } = createRequire(import.meta.url)(path.join(root, 'dist', 'node', 'routing-bench.cjs'));
const out = path.join(root, 'electron', 'engine', 'routing', 'data', 'chat-form.tsv');
fs.writeFileSync(out, fitChatForm());
console.log(`wrote ${path.relative(root, out)}`);
