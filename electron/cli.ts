import { parseArgs } from 'node:util';
import { readVersion } from './cli/context';

// Commands load lazily: `skills list` is benchmarked as a whole process, and the browser
// host's modules (http, ws, zlib) cost ~100 ms of start-up it does not need.
const commands = {
  skills: () => import('./cli/skills'),
  serve: () => import('./cli/serve'),
};

const USAGE = `skilldeck — agent skills: list, validate, serve (DESIGN §7)

Usage:
  skilldeck skills list     [--skills DIR]… [--no-default-paths] [--json]
  skilldeck skills validate PATH [--json]            exit 1 when invalid
  skilldeck serve           [--port N] [--open] [--skills DIR]… [--no-default-paths]
  skilldeck --version
`;

const options = {
  skills: { type: 'string', multiple: true, default: [] as string[] },
  'no-default-paths': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  port: { type: 'string', default: '0' },
  open: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  const [command, sub, arg] = positionals;
  const discovery = { skills: values.skills, 'no-default-paths': values['no-default-paths'] };
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'skills' && sub === 'list') {
    return (await commands.skills()).skillsList({ ...discovery, json: values.json });
  }
  if (command === 'skills' && sub === 'validate') {
    return (await commands.skills()).skillsValidate(arg, { json: values.json });
  }
  if (command === 'serve') {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`--port must be an integer 0–65535, got ${values.port}\n`);
      return 2;
    }
    return (await commands.serve()).serve({ ...discovery, port, open: values.open });
  }
  process.stderr.write(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`skilldeck: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
