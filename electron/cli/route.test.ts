import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteEvent, EvalReport } from '../../shared/contract';
import { tempDir, writeTree } from '../testing/fixtures';
import { buildCliBundle } from '../testing/cliBundle';

// DESIGN §7: `skilldeck route` and `skilldeck eval`, run as real processes against a temp home.
const root = tempDir('skilldeck-cli-route-');
const cli = path.join(root, 'cli.cjs');
const home = path.join(root, 'home');
const skills = path.join(root, 'skills');

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(skills, {
    'weather-now/SKILL.md':
      '---\nname: weather-now\ndescription: Reports the current weather forecast for a city.\ntriggers: [weather, 天气]\ncost_hint: low\n---\nbody\n',
    'weather-now/evals/trigger_evals.json': JSON.stringify([
      { query: 'weather in Paris', should_trigger: true },
      { query: 'tell me a joke', should_trigger: true },
    ]),
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args, '--no-default-paths', '--skills', skills], {
    env: { ...process.env, SKILLDECK_HOME: home, HOME: root },
    encoding: 'utf8',
  });

describe('skilldeck route / eval', () => {
  it('still routes when the route log cannot be written, and says it was not recorded', () => {
    // A data folder under a regular file: mkdir fails for root too (ENOTDIR).
    const blocked = path.join(root, 'not-a-folder');
    fs.writeFileSync(blocked, '');
    const result = spawnSync(
      process.execPath,
      [cli, 'route', 'weather in Paris', '--json', '--no-default-paths', '--skills', skills],
      { env: { ...process.env, SKILLDECK_HOME: path.join(blocked, 'home'), HOME: root }, encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    expect(RouteEvent.parse(JSON.parse(result.stdout)).plan.primary).toBe('weather-now');
    expect(result.stderr).toMatch(
      /^skilldeck: the route was not recorded: .*routes\.jsonl could not be written \(ENOTDIR\)/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('route --json prints the DESIGN §7 shape and records the event', () => {
    const result = run('route', '明天上海天气怎么样', '--json');
    expect(result.status).toBe(0);
    const event = RouteEvent.parse(JSON.parse(result.stdout));
    expect(event.plan.primary).toBe('weather-now');
    expect(event.candidates[0].factors.intent_match).toMatchObject({ weight: 0.4 });
    const log = fs.readFileSync(path.join(home, 'events', 'routes.jsonl'), 'utf8');
    expect(log).toContain(event.route_id);
    const none = JSON.parse(run('route', 'tell me a joke', '--json').stdout);
    expect(none.plan.primary).toBeNull();
  });

  it('route prints a readable breakdown and refuses a missing, empty or blank query', () => {
    const result = run('route', 'weather in Paris');
    expect(result.stdout).toContain('Primary: weather-now');
    // An empty argument reaches routeCommand as undefined (cli.ts joins the words); blanks do not.
    for (const query of [[], ['  ', '\t']]) {
      const refused = run('route', ...query);
      expect(refused.status, JSON.stringify(query)).toBe(2);
      expect(refused.stderr).toContain('usage: skilldeck route "QUERY"');
    }
  });

  it('warns on stderr of a --skills folder that does not exist, and still answers on stdout', () => {
    const missing = path.join(root, 'skils');
    const result = run('route', 'weather in Paris', '--json', '--skills', missing);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`--skills ${missing}: no such folder`);
    expect(RouteEvent.parse(JSON.parse(result.stdout)).plan.primary).toBe('weather-now');
    expect(run('route', 'weather in Paris', '--json').stderr).not.toContain('no such folder');
  });

  it('answers a usage error under --json with one { error } object on stdout', () => {
    // Only `run` did: a script reading `route … --json` got an empty stdout for a typo'd flag.
    for (const args of [
      ['route', 'weather in Paris', '--bogus', '--json'],
      ['route', '-x weather', '--json'],
      ['skills', 'list', '--json', '--bogus'],
      ['rout', 'weather in Paris', '--json'],
    ]) {
      const result = run(...args);
      expect(result.status, args.join(' ')).toBe(2);
      const { error } = JSON.parse(result.stdout) as { error: string };
      expect(error, args.join(' ')).toMatch(
        /^(Unknown option '-(-bogus|x)'|Unknown command: rout weather in Paris)/,
      );
      expect(result.stderr).toContain('Usage:');
    }
  });

  it('warns of a --skills path that is a file, not a folder', () => {
    const file = path.join(skills, 'weather-now', 'SKILL.md');
    const result = run('route', 'weather in Paris', '--json', '--skills', file);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`--skills ${file}: not a folder`);
    RouteEvent.parse(JSON.parse(result.stdout));
  });

  it("prints a third-party skill's escape sequences as text, never to the terminal", () => {
    // route, skills list and skills show wrote a SKILL.md's ESC/OSC/BEL and bidi overrides raw:
    // a name could retitle the terminal, clear it, or reverse what followed.
    const evil = path.join(root, 'evil-skills');
    writeTree(evil, {
      'evil/SKILL.md':
        '---\nname: "evil\\e[31mred\\e]0;pwned\\a"\ndescription: "Reports the weather \\e[2J forecast \\u202e for a city."\ntriggers: ["weather\\e[5m"]\n---\nbody\n',
    });
    const own = (...args: string[]) =>
      spawnSync(process.execPath, [cli, ...args, '--no-default-paths', '--skills', evil], {
        env: { ...process.env, SKILLDECK_HOME: home, HOME: root },
        encoding: 'utf8',
      });
    for (const args of [
      ['route', 'weather forecast'],
      ['skills', 'list'],
      ['skills', 'show', 'evil'],
    ]) {
      const result = own(...args);
      expect(result.status, args.join(' ')).toBe(0);
      // eslint-disable-next-line no-control-regex -- the control characters are what is tested
      expect(result.stdout, args.join(' ')).not.toMatch(/[\u001b\u0007\u202e]/);
      expect(result.stdout, args.join(' ')).toContain('evil\\x1b[31mred\\x1b]0;pwned\\x07');
    }
    // --json keeps every byte (JSON escapes them).
    expect(RouteEvent.parse(JSON.parse(own('route', 'weather forecast', '--json').stdout)).plan.primary).toBe(
      'evil\u001b[31mred\u001b]0;pwned\u0007',
    );
  });

  it('warns when settings.json cannot be used, so a skill the user turned off is not chosen unannounced', () => {
    // A disabled list written as a string made the whole file fall back to defaults, silently:
    // route then chose the very skill the user had disabled.
    const odd = path.join(root, 'odd-home');
    fs.mkdirSync(odd, { recursive: true });
    fs.writeFileSync(
      path.join(odd, 'settings.json'),
      JSON.stringify({ skills: { disabled: 'weather-now' } }),
    );
    const result = spawnSync(
      process.execPath,
      [cli, 'route', 'weather in Paris', '--json', '--no-default-paths', '--skills', skills],
      { env: { ...process.env, SKILLDECK_HOME: odd, HOME: root }, encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      `skilldeck: warning: ${path.join(odd, 'settings.json')} does not match the settings schema (skills.disabled:`,
    );
    expect(result.stderr).toContain('defaults used');
    RouteEvent.parse(JSON.parse(result.stdout));
  });

  it('eval exits 1 when a case fails and reports precision and recall', () => {
    const result = run('eval', 'weather-now', '--json');
    expect(result.status).toBe(1);
    const report = EvalReport.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ passed: 1, failed: 1, precision: 1, recall: 0.5 });
    expect(run('eval', 'no-such-skill').status).toBe(2);
  });
});
