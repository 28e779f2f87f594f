// Disk → screen for skills (issue 3 item 6: an edit, an addition or a deletion on disk shows
// within 1 s): the time from the file system change to the `skills.changed` event a browser-mode
// client receives. The test (electron/host/hotReload.test.ts) only checks that it happens.
// Standalone: `npm run build:node && npx vite build && node bench/hotReload.mjs`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { serve } from './keystroke.mjs';

const skillMd = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];

/** Resolves with the ms from `act()` to the first `skills.changed` that `match`es, or rejects after `ms`. */
function timeChange(socket, match, act, ms = 10_000) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const timer = setTimeout(() => {
      socket.off('message', onMessage);
      reject(new Error(`no skills.changed within ${ms} ms`));
    }, ms);
    const onMessage = (data) => {
      const message = JSON.parse(String(data));
      if (message.type !== 'event' || message.name !== 'skills.changed' || !match(message.payload)) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(performance.now() - start);
    };
    socket.on('message', onMessage);
    act();
  });
}

export async function benchHotReload({ rounds = 5 } = {}) {
  if (!fs.existsSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'renderer')))
    throw new Error('build the renderer first');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-reload-'));
  fs.mkdirSync(path.join(tmp, 'user-home'));
  const skills = path.join(tmp, 'skills');
  const watched = path.join(skills, 'watched');
  fs.mkdirSync(watched, { recursive: true });
  fs.writeFileSync(path.join(watched, 'SKILL.md'), skillMd('watched', 'Version 0.'));
  const { child, url } = await serve(tmp, [skills]);
  const socket = new WebSocket(url.replace(/^http:\/\/([^/]+)\/\?token=/, 'ws://$1/rpc?token='));
  try {
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    let version = 0;
    const edit = () =>
      fs.writeFileSync(path.join(watched, 'SKILL.md'), skillMd('watched', `Version ${++version}.`));
    // The watcher starts after the server answers: edit until the first change arrives.
    for (let tries = 0; ; tries++) {
      try {
        await timeChange(socket, (p) => p.changed.includes(watched), edit, 1000);
        break;
      } catch (error) {
        if (tries === 20) throw error;
      }
    }
    const samples = { edit: [], add: [], remove: [] };
    for (let i = 0; i < rounds; i++) {
      samples.edit.push(await timeChange(socket, (p) => p.changed.includes(watched), edit));
      const fresh = path.join(skills, `fresh-${i}`);
      const add = () => {
        fs.mkdirSync(fresh);
        fs.writeFileSync(path.join(fresh, 'SKILL.md'), skillMd(`fresh-${i}`, 'Added.'));
      };
      samples.add.push(await timeChange(socket, (p) => p.added.includes(fresh), add));
      const remove = () => fs.rmSync(fresh, { recursive: true });
      samples.remove.push(await timeChange(socket, (p) => p.removed.includes(fresh), remove));
    }
    const all = Object.values(samples).flat();
    const summary = (values) => ({
      p50: Number(quantile(values, 0.5).toFixed(1)),
      max: Number(Math.max(...values).toFixed(1)),
    });
    return {
      rounds,
      edit_ms: summary(samples.edit),
      add_ms: summary(samples.add),
      remove_ms: summary(samples.remove),
      target_ms: 1000,
      pass: Math.max(...all) <= 1000,
    };
  } finally {
    socket.close();
    child.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchHotReload(), null, 2));
}
