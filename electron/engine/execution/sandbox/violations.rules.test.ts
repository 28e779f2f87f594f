import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../testing/fixtures';
import { planLayout } from './layout';
import type { SandboxGrants } from './types';
import { findViolations, type ViolationInput } from './violations';

// How a hit is judged against the grants and the layout, one rule at a time, on real files
// (violations.test.ts reads whole stderr samples; bwrap.files.test.ts runs real sandboxes).
const root = tempDir('skilldeck-violations-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const home = path.join(root, 'home');
const cwd = path.join(root, 'run');
const skillDir = path.join(root, 'skill');
writeTree(root, { 'home/.ssh/id_rsa': 'k', 'run/out/.keep': '', 'skill/SKILL.md': 'x' });

const grants = (over: Partial<SandboxGrants> = {}): SandboxGrants => ({
  read: [],
  write: [path.join(cwd, 'out')],
  network: false,
  env: {},
  declared: { read: ['./in/**'], write: ['./out/**'] },
  ...over,
});
const spec = (over: Partial<SandboxGrants> = {}, maxOutputBytes = 1024 * 1024) => ({
  cwd,
  skillDir,
  grants: grants(over),
  maxOutputBytes,
});
const layout = planLayout(spec(), { home });
const scan = (stderr: string, over: Partial<ViolationInput> = {}) =>
  findViolations({ spec: spec(), stderr, layout, refusedHosts: [], truncated: false, hostEnv: {}, ...over });
const kinds = (stderr: string, over: Partial<ViolationInput> = {}) =>
  scan(stderr, over).map((v) => `${v.kind} ${v.target}`);
// Everything under the root is hidden: /tmp is masked as a whole. /etc is seen read-only.
const key = path.join(home, '.ssh/id_rsa');
const visible = '/etc/passwd';

describe('findViolations: files', () => {
  it('calls a read-only error a write, even on a file the mask hides', () => {
    expect(kinds(`OSError: [Errno 30] Read-only file system: '${key}'`)).toEqual([`write ${key}`]);
  });

  it('takes a missing file in a masked folder as ordinary when the host lacks it too', () => {
    // Nearest on the host: /tmp itself, which is there inside, empty.
    expect(scan('cat: /tmp/skilldeck-no-such-dir/x: No such file or directory')).toEqual([]);
    expect(kinds(`cat: ${path.join(home, 'nope', 'x')}: No such file or directory`)).toEqual([
      `read ${path.join(home, 'nope', 'x')}`,
    ]);
  });

  it('judges a known write by the layout, hidden or not', () => {
    expect(kinds(`Error: EPERM: operation not permitted, chmod '${key}'`)).toEqual([`write ${key}`]);
    expect(kinds(`Error: EACCES: permission denied, mkdir '${path.join(cwd, 'out', 'd')}'`)).toEqual([]);
  });

  it('judges a known read as a violation when hidden or outside every grant', () => {
    expect(kinds(`Error: EACCES: permission denied, scandir '${key}'`)).toEqual([`read ${key}`]);
    expect(kinds(`Error: EACCES: permission denied, scandir '${visible}'`)).toEqual([`read ${visible}`]);
    for (const granted of [path.join(skillDir, 'SKILL.md'), path.join(cwd, 'in.csv')])
      expect(scan(`Error: EACCES: permission denied, stat '${granted}'`), granted).toEqual([]);
    expect(
      scan(`Error: EACCES: permission denied, stat '${visible}'`, { spec: spec({ read: ['/etc'] }) }),
    ).toEqual([]);
    expect(
      scan(`Error: EACCES: permission denied, stat '${visible}'`, { spec: spec({ write: ['/etc'] }) }),
    ).toEqual([]);
  });

  it('without a direction: a missing path was being written, a hidden one read, a readable one written', () => {
    expect(kinds('touch: /etc/skilldeck-nope: Permission denied')).toEqual(['write /etc/skilldeck-nope']);
    expect(kinds(`/skill/run.sh: line 2: ${key}: Permission denied`)).toEqual([`read ${key}`]);
    expect(kinds(`/skill/run.sh: line 2: ${visible}: Permission denied`)).toEqual([`write ${visible}`]);
    // A command that only reads says so, whatever the host has.
    expect(kinds(`cat: ${visible}: Permission denied`)).toEqual([`read ${visible}`]);
  });
});

describe('findViolations: network', () => {
  const listed = { spec: spec({ network: ['a.com'] }) };

  it('words a refused host with the list, or with none declared', () => {
    expect(scan('', { refusedHosts: ['evil.example'] })[0].message).toBe(
      'tried to reach evil.example, not in its network allow-list: (none declared)',
    );
    expect(
      scan('', {
        ...listed,
        refusedHosts: ['a.com'],
        proxyRefusals: [{ host: 'a.com', reason: 'local_address' }],
      })[0].message,
    ).toBe(
      'tried to reach a.com, which resolves to a local address on this machine or its local network; the allow-list reaches those only when the skill lists the address itself',
    );
  });

  it("ignores only the bridge's own loopback port", () => {
    for (const host of ['127.0.0.1', '[::1]'])
      expect(scan(`Error: connect ECONNREFUSED ${host}:3128`, { ...listed, proxyPort: 3128 }), host).toEqual(
        [],
      );
    expect(
      scan('curl: (7) Failed to connect to localhost port 3128 after 0 ms', { ...listed, proxyPort: 3128 }),
    ).toEqual([]);
    // Off the list: named by host.
    expect(kinds('Error: connect ECONNREFUSED 10.0.0.1:3128', { ...listed, proxyPort: 3128 })).toEqual([
      'network 10.0.0.1',
    ]);
    expect(kinds('Error: connect ECONNREFUSED 127.0.0.1:4000', { ...listed, proxyPort: 3128 })).toEqual([
      'network 127.0.0.1',
    ]);
    expect(kinds('Error: connect ECONNREFUSED 127.0.0.1:3128', listed)).toEqual(['network 127.0.0.1']);
  });

  it('names the hosts it knows, and the network in general only when it knows none', () => {
    const both =
      'socket.gaierror: [Errno -3] Temporary failure in name resolution\nError: connect ECONNREFUSED 1.2.3.4:80';
    expect(kinds(both)).toEqual(['network 1.2.3.4:80']);
    expect(scan('Error: getaddrinfo ENOTFOUND example.com')).toEqual([
      {
        kind: 'network',
        target: 'example.com',
        message: 'tried to reach example.com over the network, which it does not declare',
      },
    ]);
    expect(scan('socket.gaierror: [Errno -3] Temporary failure in name resolution', listed)).toEqual([
      {
        kind: 'network',
        target: 'network',
        message:
          'tried to reach the network directly; only a.com can be reached, through the allow-list proxy (HTTPS_PROXY)',
      },
    ]);
  });
});

describe('findViolations: the list itself', () => {
  it('words the output cap in KiB or MiB', () => {
    expect(scan('', { truncated: true, spec: spec({}, 64 * 1024) })[0].message).toBe(
      'printed more than 64 KiB of output, its cap; it was stopped there',
    );
    expect(scan('', { truncated: true, spec: spec({}, 1536 * 1024) })[0].message).toBe(
      'printed more than 1.5 MiB of output, its cap; it was stopped there',
    );
    expect(scan('', { truncated: true, spec: spec({}, 1000) })[0].message).toBe(
      'printed more than 1 KiB of output, its cap; it was stopped there',
    );
  });

  it('names a missed variable in full', () => {
    expect(scan('Error: TOKEN is not set', { hostEnv: { TOKEN: 'x' } })).toEqual([
      {
        kind: 'env',
        target: 'TOKEN',
        message: 'tried to read the environment variable TOKEN, which is not in its environment allow-list',
      },
    ]);
  });

  it('lists each target once, and 20 at most', () => {
    const lines = Array.from({ length: 25 }, (_, i) => `Error: connect ECONNREFUSED 10.0.0.${i}:80`);
    const many = scan([...lines, lines[0]].join('\n'));
    expect(many).toHaveLength(20);
    expect(many.map((v) => v.target)).toEqual(lines.slice(0, 20).map((l) => l.split(' ').pop()));
  });
});
