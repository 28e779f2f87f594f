import { parseArgs } from 'node:util';
import { endQuietlyOnClosedPipe, exitStatus, readVersion, refuse, unstartedRun } from './cli/context';
import type { EvalCaseFlag } from './cli/evals';

// Commands load lazily: `skills list` is benchmarked as a whole process, and the browser
// host's modules (http, ws, zlib) cost ~100 ms of start-up it does not need.
const commands = {
  skills: () => import('./cli/skills'),
  deps: () => import('./cli/deps'),
  install: () => import('./cli/install'),
  serve: () => import('./cli/serve'),
  route: () => import('./cli/route'),
  evals: () => import('./cli/evals'),
  tune: () => import('./cli/tune'),
  run: () => import('./cli/run'),
  chat: () => import('./cli/chat'),
  repair: () => import('./cli/repair'),
  repairUndo: () => import('./cli/repairUndo'),
  trust: () => import('./cli/trust'),
  revisions: () => import('./cli/revisions'),
};

const USAGE = `skilldeck — agent skills: list, validate, serve (DESIGN §7)

Usage:
  skilldeck skills list     [--skills DIR]… [--no-default-paths] [--json]
  skilldeck skills validate PATH [--json]            exit 1 when invalid
  skilldeck skills show     NAME [--skills DIR]… [--no-default-paths] [--json]
                            one skill: where, files, problems, and what its instructions ask the agent to do
  skilldeck skills fix      NAME [--apply] [--json]    makes a SKILL.md whose frontmatter is unclosed,
                            misplaced or missing load: shows the diff; --apply writes it (undoable)
  skilldeck skills history  NAME [--json]            the revisions skills fix, repair --apply and the app wrote
  skilldeck skills undo     REVISION [--json]        puts every file a revision changed back byte for byte
  skilldeck skills install  SOURCE [--yes] [--json] [--replace] [--name NEW] [--ref REF] [--path SUB]
                            SOURCE: a folder, a .zip / .skill archive, or a git URL (URL#ref works)
  skilldeck skills remove   NAME [--json]            moves a managed skill to the trash
  skilldeck skills restore  [TRASH_ID]               undo a remove or replace; lists the trash without one
  skilldeck skills deps     NAME [--install N] [--json]   programs it misses and its install commands;
                            --install N runs the Nth (outside the sandbox); exit 1 while one is missing
  skilldeck route "QUERY"   [--skills DIR]… [--no-default-paths] [--json]   records a route event
  skilldeck run SKILL "TASK" [--skills DIR]… [--no-default-paths] [--approve|--deny] [--entry NAME] [--input JSON] [--json]
                            runs in the sandbox; without --approve/--deny a terminal is asked, none → deny;
                            SKILL is a name, or a skill's folder as a path (./my-skill)
  skilldeck chat "MESSAGE" [--skills DIR]… [--no-default-paths] [--approve|--deny] [--conversation ID] [--json]
                            one turn; a model from Settings or OPENAI_BASE_URL / OPENAI_API_KEY / SKILLDECK_MODEL
  skilldeck repair SKILL "TASK" [--skills DIR]… [--no-default-paths] [--apply] [--deny] [--entry NAME] [--input JSON] [--json]
                            runs the task; on a near miss proposes replay-checked patches; --apply applies the best
  skilldeck repair SKILL --undo [REVISION] [--json]   takes back the newest applied repair (or REVISION)
  skilldeck eval SKILL      [--skills DIR]… [--no-default-paths] [--json]   trigger evals; exit 1 on a failure
                            [--should-trigger Q]… [--should-not-trigger Q]… [--remove Q]… first stores those
                            cases in the skill's evals/trigger_evals.json
  skilldeck eval SKILL --improve [--rounds N] [--apply] [--json]
                            tunes the description with the model against the trigger evals, judged
                            on held-out cases; --apply writes the best into SKILL.md
  skilldeck serve           [--port N] [--open] [--skills DIR]… [--no-default-paths]
  skilldeck trust [DIR]     [--untrust] [--list] [--json]
                            trust a folder (default: here) for the app and serve, so the skills in its
                            skills/, .claude/skills, .agents/skills run as they declare; one-shot commands
                            trust the folder they run in without it
  skilldeck --version
`;

const options = {
  skills: { type: 'string', multiple: true, default: [] as string[] },
  'no-default-paths': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  replace: { type: 'boolean', default: false },
  name: { type: 'string' },
  ref: { type: 'string' },
  path: { type: 'string' },
  approve: { type: 'boolean', default: false },
  deny: { type: 'boolean', default: false },
  entry: { type: 'string' },
  input: { type: 'string' },
  conversation: { type: 'string' },
  apply: { type: 'boolean', default: false },
  undo: { type: 'boolean', default: false },
  port: { type: 'string', default: '0' },
  open: { type: 'boolean', default: false },
  'should-trigger': { type: 'string', multiple: true, default: [] as string[] },
  'should-not-trigger': { type: 'string', multiple: true, default: [] as string[] },
  remove: { type: 'string', multiple: true, default: [] as string[] },
  install: { type: 'string' },
  improve: { type: 'boolean', default: false },
  rounds: { type: 'string' },
  untrust: { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

const CASE_FLAGS = new Set<string>(['should-trigger', 'should-not-trigger', 'remove']);

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    const message = `${(error as Error).message}\n\n${USAGE}`;
    // DESIGN §7: under --json a usage error is still one object on stdout (`run`: the run shape).
    if (argv.includes('--json'))
      return refuse(message, true, argv.find((a) => !a.startsWith('-')) === 'run' ? unstartedRun : undefined);
    process.stderr.write(message);
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
  if (command === 'skills' && sub === 'show') {
    return (await commands.skills()).skillsShow(arg, { ...discovery, json: values.json });
  }
  if (command === 'skills' && sub === 'fix') {
    return (await commands.skills()).skillsFix(arg, { ...discovery, json: values.json, apply: values.apply });
  }
  if (command === 'skills' && sub === 'history')
    return (await commands.revisions()).skillsHistory(arg, { ...discovery, json: values.json });
  if (command === 'skills' && sub === 'undo')
    return (await commands.revisions()).skillsUndo(arg, { ...discovery, json: values.json });
  if (command === 'skills' && sub === 'install') {
    const { yes, json, replace, name, ref, path } = values;
    return (await commands.install()).skillsInstall(arg, {
      ...discovery,
      yes,
      json,
      replace,
      name,
      ref,
      path,
    });
  }
  if (command === 'skills' && sub === 'remove') {
    return (await commands.install()).skillsRemove(arg, { ...discovery, json: values.json });
  }
  if (command === 'skills' && sub === 'deps')
    return (await commands.deps()).skillsDeps(arg, {
      ...discovery,
      json: values.json,
      install: values.install,
    });
  if (command === 'skills' && sub === 'restore')
    return (await commands.install()).skillsRestore(arg, discovery);
  if (command === 'route') {
    return (await commands.route()).routeCommand(positionals.slice(1).join(' ') || undefined, {
      ...discovery,
      json: values.json,
    });
  }
  if (command === 'run') {
    const { json, approve, deny, entry, input } = values;
    return (await commands.run()).runCommand(sub, positionals.slice(2).join(' '), {
      ...discovery,
      json,
      approve,
      deny,
      entry,
      input,
    });
  }
  if (command === 'chat') {
    const { json, approve, deny, conversation } = values;
    return (await commands.chat()).chatCommand(positionals.slice(1).join(' '), {
      ...discovery,
      json,
      approve,
      deny,
      conversation,
    });
  }
  if (command === 'repair' && values.undo && sub)
    return (await commands.repairUndo()).repairUndoCommand(sub, arg, { ...discovery, json: values.json });
  if (command === 'repair') {
    const { json, apply, deny, entry, input } = values;
    return (await commands.repair()).repairCommand(sub, positionals.slice(2).join(' '), {
      ...discovery,
      json,
      apply,
      deny,
      entry,
      input,
    });
  }
  if (command === 'eval' && values.improve && sub)
    return (await commands.tune()).tuneCommand(sub, {
      ...discovery,
      json: values.json,
      rounds: values.rounds,
      apply: values.apply,
    });
  if (command === 'eval') {
    // The case flags act in the order given: `--should-trigger Q … --remove Q` ends removed.
    const cases = parsed.tokens.flatMap((t) =>
      t.kind === 'option' && CASE_FLAGS.has(t.name)
        ? [{ flag: t.name as EvalCaseFlag['flag'], query: t.value ?? '' }]
        : [],
    );
    return (await commands.evals()).evalCommand(sub, { ...discovery, json: values.json, cases });
  }
  if (command === 'trust') {
    const { untrust, list, json } = values;
    return (await commands.trust()).trustCommand(sub, { untrust, list, json });
  }
  if (command === 'serve') {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`--port must be an integer 0–65535, got ${values.port}\n`);
      return 2;
    }
    return (await commands.serve()).serve({ ...discovery, port, open: values.open });
  }
  return refuse(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}`, values.json);
}

endQuietlyOnClosedPipe();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = exitStatus(code);
  },
  (error: unknown) => {
    process.stderr.write(`skilldeck: ${(error as Error)?.stack ?? String(error)}\n`);
    // A caller that asked for JSON parses stdout: an unexpected failure is still one object.
    if (process.argv.includes('--json'))
      process.stdout.write(`${JSON.stringify({ error: (error as Error)?.message ?? String(error) })}\n`);
    process.exitCode = 1;
  },
);
