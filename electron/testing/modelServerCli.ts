// The scripted model server as a process, for CLI tests and anyone outside Vitest:
//   node scripts/model-server.mjs [--port N] [--record requests.jsonl] script.json
// It prints one JSON line, {"url": …, "baseURL": …}, once it listens; point OPENAI_BASE_URL at
// baseURL. The script is a ModelScript (replies, rules, fallback, models, apiKey); more
// replies can be queued with POST /__script/replies, received requests read at GET /__script/requests,
// and a stream held by `holdAfter` let go with POST /__script/release.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startModelServer, type ModelScript } from './modelServer';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { port: { type: 'string' }, record: { type: 'string' } },
    allowPositionals: true,
  });
  let script: ModelScript = {};
  if (positionals[0]) {
    try {
      script = JSON.parse(fs.readFileSync(positionals[0], 'utf8')) as ModelScript;
    } catch (error) {
      throw new Error(`Could not read the script ${positionals[0]}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!script || typeof script !== 'object' || Array.isArray(script)) {
      throw new Error(`${positionals[0]} must hold a JSON object: { "replies": [...], "rules": [...], ... }`);
    }
  }
  const record = values.record;
  const server = await startModelServer({
    ...script,
    port: values.port ? Number(values.port) : 0,
    onRequest: record ? (request) => fs.appendFileSync(record, `${JSON.stringify(request)}\n`) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, baseURL: server.baseURL })}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
