import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { planLayout, type SandboxLayout } from './layout';
import type { SandboxGrants } from './types';
import { findViolations, type ViolationInput } from './violations';

// Violations are judged against the grants: only what lies outside them is reported, in the
// words Python, Bash/coreutils and Node use for the same OS errors.
describe('findViolations', () => {
  let root: string;
  let home: string;
  let cwd: string;
  let layout: SandboxLayout;
  let spec: ViolationInput['spec'];

  const grants = (over: Partial<SandboxGrants> = {}): SandboxGrants => ({
    read: [],
    write: [path.join(cwd, 'out')],
    network: false,
    env: { PATH: '/bin', HOME: home },
    declared: { read: [], write: ['./out/**'] },
    ...over,
  });
  const scan = (stderr: string, over: Partial<ViolationInput> = {}) =>
    findViolations({
      spec,
      stderr,
      layout,
      refusedHosts: [],
      truncated: false,
      hostEnv: { SECRET: 'x' },
      ...over,
    });
  const kinds = (stderr: string, over: Partial<ViolationInput> = {}) =>
    scan(stderr, over).map((v) => `${v.kind} ${v.target}`);

  beforeAll(() => {
    root = tempDir('skilldeck-viol-');
    home = path.join(root, 'home');
    cwd = path.join(root, 'run');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh/id_rsa'), 'k');
    fs.mkdirSync(path.join(cwd, 'out'), { recursive: true });
    spec = { cwd, skillDir: path.join(root, 'skill'), grants: grants(), maxOutputBytes: 1024 * 1024 };
    layout = planLayout(spec, { home });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('names a write outside the write paths, in each language', () => {
    const message = 'tried to write /etc/x, outside its write paths ./out/**';
    for (const stderr of [
      "OSError: [Errno 30] Read-only file system: '/etc/x'",
      '/skill/run.sh: line 3: /etc/x: Read-only file system',
      "touch: cannot touch '/etc/x': Read-only file system",
      'mkdir: cannot create directory ‘/etc/x’: Read-only file system',
      "Error: EROFS: read-only file system, open '/etc/x'",
    ]) {
      expect(scan(stderr)).toEqual([{ kind: 'write', target: '/etc/x', message }]);
    }
  });

  it('names a read of a hidden file, and a socket as a socket', () => {
    const key = path.join(home, '.ssh/id_rsa');
    const expected = [
      { kind: 'read', target: key, message: `tried to read ${key}, outside its read paths (none declared)` },
    ];
    expect(scan(`FileNotFoundError: [Errno 2] No such file or directory: '${key}'`)).toEqual(expected);
    expect(scan(`cat: ${key}: No such file or directory`)).toEqual(expected);
    expect(scan(`Error: ENOENT: no such file or directory, open '${key}'`)).toEqual(expected);
  });

  it('reads a shell redirect into a hidden folder as a write, a command reading a missing file as a read', () => {
    const target = path.join(home, 'notes', 'new.txt');
    // `echo x > ~/notes/new.txt`: bash names the line, not the direction; the file is not on the host.
    expect(kinds(`/skill/scripts/w.sh: line 1: ${target}: No such file or directory`)).toEqual([
      `write ${target}`,
    ]);
    expect(kinds(`Error: ENOENT: no such file or directory, open '${target}'`)).toEqual([`write ${target}`]);
    // `cat ~/notes/new.txt`: cat only reads.
    expect(kinds(`cat: ${target}: No such file or directory`)).toEqual([`read ${target}`]);
  });

  it('tells a Python write into a hidden folder from a read, by the traceback’s source line', () => {
    const target = path.join(home, 'notes', 'new.txt');
    const traceback = (source: string) =>
      [
        'Traceback (most recent call last):',
        '  File "/skill/scripts/w.py", line 3, in <module>',
        `    ${source}`,
        `FileNotFoundError: [Errno 2] No such file or directory: '${target}'`,
      ].join('\n');
    expect(kinds(traceback('with open(target, "w") as fh:'))).toEqual([`write ${target}`]);
    expect(kinds(traceback("pathlib.Path(target).write_text('x')"))).toEqual([`write ${target}`]);
    expect(kinds(traceback('with open(target) as fh:'))).toEqual([`read ${target}`]);
  });

  it('leaves ordinary failures alone: missing files inside the grants or the system, writes inside ./out', () => {
    expect(
      scan(`FileNotFoundError: [Errno 2] No such file or directory: '${path.join(cwd, 'missing.csv')}'`),
    ).toEqual([]);
    expect(scan("FileNotFoundError: [Errno 2] No such file or directory: 'data/input.csv'")).toEqual([]);
    expect(scan('cat: /etc/skilldeck-no-such-file: No such file or directory')).toEqual([]);
    expect(scan(`Error: EACCES: permission denied, open '${path.join(cwd, 'out', 'locked.txt')}'`)).toEqual(
      [],
    );
    expect(scan("FileNotFoundError: [Errno 2] No such file or directory: '/x'\nKeyError: 'Amount'")).toEqual(
      [],
    );
  });

  it('finds a Python path or URL in the traceback source lines when the error has none', () => {
    const sock = path.join(root, 'probe.sock');
    const stderr = [
      'Traceback (most recent call last):',
      '  File "/skill/scripts/probe.py", line 3, in <module>',
      `    s.connect("${sock}")`,
      'FileNotFoundError: [Errno 2] No such file or directory',
    ].join('\n');
    fs.writeFileSync(sock, '');
    expect(kinds(stderr)).toEqual([`read ${sock}`]);
    const url = [
      '  File "/skill/x.py", line 2, in <module>',
      '    urlopen("http://10.1.2.3:8080/api")',
      'urllib.error.URLError: <urlopen error [Errno 101] Network is unreachable>',
    ];
    expect(kinds(url.join('\n'))).toEqual(['network 10.1.2.3:8080']);
  });

  it('names network attempts without a network grant, with the target where the language gives one', () => {
    expect(kinds('Error: connect ECONNREFUSED 127.0.0.1:4000')).toEqual(['network 127.0.0.1:4000']);
    expect(kinds('Error: getaddrinfo EAI_AGAIN example.com')).toEqual(['network example.com']);
    expect(kinds('bash: /dev/tcp/1.2.3.4/80: Network is unreachable')).toEqual(['network 1.2.3.4:80']);
    expect(kinds('curl: (6) Could not resolve host: example.com')).toEqual(['network example.com']);
    expect(scan('socket.gaierror: [Errno -3] Temporary failure in name resolution')).toEqual([
      {
        kind: 'network',
        target: 'network',
        message: 'tried to reach the network, which it does not declare',
      },
    ]);
    expect(
      scan('Error: connect ECONNREFUSED 127.0.0.1:4000', {
        spec: { ...spec, grants: grants({ network: true }) },
      }),
    ).toEqual([]);
    // "FileNotFoundError" must not read as ENOTFOUND.
    expect(kinds("FileNotFoundError: [Errno 2] No such file or directory: 'x.txt'")).toEqual([]);
  });

  it('with a domain list: proxy refusals, and direct attempts told apart', () => {
    const listed = { ...spec, grants: grants({ network: ['a.com', 'b.org'] }) };
    expect(scan('', { spec: listed, refusedHosts: ['evil.example', 'evil.example'] })).toEqual([
      {
        kind: 'network',
        target: 'evil.example',
        message: 'tried to reach evil.example, not in its network allow-list: a.com, b.org',
      },
    ]);
    expect(scan('Error: getaddrinfo EAI_AGAIN a.com', { spec: listed })[0].message).toBe(
      'tried to reach a.com directly; only a.com, b.org can be reached, through the allow-list proxy (HTTPS_PROXY)',
    );
    expect(scan('Error: getaddrinfo EAI_AGAIN c.net', { spec: listed })[0].message).toBe(
      'tried to reach c.net, not in its network allow-list: a.com, b.org',
    );
    expect(scan('Error: connect ECONNREFUSED 127.0.0.1:3128', { spec: listed, proxyPort: 3128 })).toEqual([]);
    const rebound = { host: 'a.com', reason: 'local_address' as const, address: '127.0.0.1' };
    expect(scan('', { spec: listed, refusedHosts: ['a.com'], proxyRefusals: [rebound] })[0].message).toBe(
      'tried to reach a.com, which resolves to 127.0.0.1 on this machine or its local network; the allow-list reaches those only when the skill lists the address itself',
    );
  });

  it('names a variable missed because it is not allow-listed, in each language', () => {
    const expected = ['env SECRET'];
    expect(kinds("  File \"/s.py\", line 2\n    os.environ['SECRET']\nKeyError: 'SECRET'")).toEqual(expected);
    expect(kinds('/s.sh: line 2: SECRET: unbound variable')).toEqual(expected);
    expect(kinds('Error: SECRET is not set')).toEqual(expected);
    // A dict KeyError, a variable unset on the host too, or one that was granted: not the sandbox.
    expect(kinds("    row['SECRET']\nKeyError: 'SECRET'")).toEqual([]);
    expect(kinds('Error: OTHER_TOKEN is not set')).toEqual([]);
    expect(kinds('Error: PATH is not set', { hostEnv: { PATH: '/x' } })).toEqual([]);
  });

  it('names the output cap and Node permission-model denials', () => {
    expect(scan('', { truncated: true })).toEqual([
      {
        kind: 'output',
        target: '1048576 bytes',
        message: 'printed more than 1 MiB of output, its cap; it was stopped there',
      },
    ]);
    const nodePerm =
      "Error: Access to this API has been restricted\n  code: 'ERR_ACCESS_DENIED',\n  permission: 'FileSystemWrite',\n  resource: '/etc/y'";
    expect(kinds(nodePerm)).toEqual(['write /etc/y']);
  });

  it('without a layout (process tier) reports only what it enforces', () => {
    expect(
      scan("OSError: [Errno 30] Read-only file system: '/etc/x'\nError: connect ECONNREFUSED 127.0.0.1:1", {
        layout: null,
      }),
    ).toEqual([]);
  });
});
