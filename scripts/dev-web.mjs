// `npm run dev:web`: the engine's browser host plus Vite's dev server with hot reload.
// Vite proxies /rpc to the host, whose Origin check is told about Vite's origin.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { buildNode } from './build-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const hostPort = Number(process.env.SKILLDECK_HOST_PORT || 5198);
const vitePort = Number(process.env.SKILLDECK_VITE_PORT || 5173);
const token = randomBytes(24).toString('base64url');

await buildNode();
const host = spawn(
  process.execPath,
  [path.join(root, 'dist/node/cli.cjs'), 'serve', '--port', String(hostPort), ...process.argv.slice(2)],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, SKILLDECK_TOKEN: token, SKILLDECK_DEV_ORIGIN: `http://127.0.0.1:${vitePort}` },
  },
);
const vite = await createServer({
  configFile: path.join(root, 'vite.config.ts'),
  server: {
    host: '127.0.0.1',
    port: vitePort,
    strictPort: true,
    proxy: { '/rpc': { target: `ws://127.0.0.1:${hostPort}`, ws: true, changeOrigin: true } },
  },
});
await vite.listen();
console.log(`SkillDeck (dev) at http://127.0.0.1:${vitePort}/?token=${token}`);
const stop = async () => {
  host.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
