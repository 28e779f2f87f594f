import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startHost } from '../host/server';
import { createRpcServer } from '../rpc/server';
import { appRoot, openEngine, type DiscoveryFlags } from './context';

function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', () =>
    process.stderr.write(`Could not open a browser (${command}); open the URL above.\n`),
  );
  child.unref();
}

/** `serve`: browser mode on 127.0.0.1 with a per-run token; runs until SIGINT/SIGTERM. */
export async function serve(flags: DiscoveryFlags & { port: number; open: boolean }): Promise<number> {
  const rendererDir = path.join(appRoot(), 'dist', 'renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    process.stderr.write(`The renderer is not built (${rendererDir}). Run \`npm run build\` first.\n`);
    return 1;
  }
  const engine = await openEngine(flags, true);
  const host = await startHost({
    rpc: createRpcServer(engine),
    rendererDir,
    port: flags.port,
    token: process.env.SKILLDECK_TOKEN || undefined,
    devOrigin: process.env.SKILLDECK_DEV_ORIGIN?.startsWith('http://127.0.0.1:')
      ? process.env.SKILLDECK_DEV_ORIGIN
      : undefined,
  });
  const count = engine.skills.list().skills.length;
  process.stdout.write(
    `SkillDeck is serving ${count} skills at\n  ${host.url}\n(127.0.0.1 only; Ctrl+C stops it)\n`,
  );
  if (flags.open) openInBrowser(host.url);
  // Build the routing index while the page loads, not on the user's first keystroke.
  setTimeout(() => engine.routing.index(), 0);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await host.close();
  await engine.close();
  return 0;
}
