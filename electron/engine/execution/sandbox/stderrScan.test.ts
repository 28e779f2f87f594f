import { describe, expect, it } from 'vitest';
import { scanStderr } from './stderrScan';

// What the scanner reads out of stderr, in the words real programs use (python3, bash,
// coreutils, node, curl and wget print these lines); violations.ts judges the hits.
const fs = (stderr: string) => scanStderr(stderr).fs;
const net = (stderr: string) => scanStderr(stderr).net;
const traceback = (...source: string[]) => [
  'Traceback (most recent call last):',
  '  File "/skill/scripts/probe.py", line 3, in <module>',
  ...source.map((l) => `    ${l}`),
];

describe('file errors', () => {
  it('reads Python errors with a path in either quote style, unescaping it', () => {
    expect(fs("FileNotFoundError: [Errno 2] No such file or directory: '/proc/nope/x'")).toEqual([
      { path: '/proc/nope/x', code: 'ENOENT' },
    ]);
    expect(fs('FileNotFoundError: [Errno 2] No such file or directory: "/tmp/it\'s/x"')).toEqual([
      { path: "/tmp/it's/x", code: 'ENOENT' },
    ]);
    expect(fs("PermissionError: [Errno 13] Permission denied: '/a\\'b\"c'")).toEqual([
      { path: '/a\'b"c', code: 'EACCES' },
    ]);
    expect(fs("FileExistsError: [Errno 17] File exists: '/etc'")).toEqual([]);
  });

  it('tells a Python write from a read by the three source lines above the error', () => {
    const write = (source: string) =>
      fs([...traceback(source), "OSError: [Errno 30] Read-only file system: '/etc/x'"].join('\n'))[0].write;
    for (const source of [
      "open(path,'w')",
      'open(os.path.expanduser("~/x"), "w")',
      'open(path, "rb+")',
      "open(path, mode='a')",
      "open(path, mode = 'x')",
      'Path(p).write_text("x")',
      'Path(p).write_bytes(b"")',
      'Path(p).mkdir()',
      'Path(p).touch()',
      'os.makedirs(p)',
      'os.rename(a, b)',
      'shutil.copyfile(a, b)',
      'shutil.move(a, b)',
    ])
      expect(write(source), source).toBe(true);
    for (const source of ["open(path, 'r')", 'open(path)', 'os.stat(p)', 'Path(p).read_text()'])
      expect(write(source), source).toBe(false);
    expect(write('load(p)')).toBeUndefined();
    const far = ["open(path, 'w')", 'x = 1', 'y = 2', 'z = 3'];
    expect(
      fs([...traceback(...far), "OSError: [Errno 30] Read-only file system: '/etc/x'"].join('\n')),
    ).toEqual([{ path: '/etc/x', code: 'EROFS' }]);
  });

  it("reads an open() mode from the line's open( to its end, the comma on that line", () => {
    const rofs = "OSError: [Errno 30] Read-only file system: '/etc/x'";
    const write = (...source: string[]) => fs([...traceback(...source), rofs].join('\n'))[0].write;
    // A statement over two lines (Python 3.13 prints them all): the comma ends the open( line.
    expect(write('with open(path,', "          'w') as f:")).toBe(true);
    // A source line printed unindented, its open( at column 0.
    expect(fs(["open(path, 'w')", rofs].join('\n'))[0].write).toBe(true);
    // A quoted 'w' before the open( or on another line is no mode of it.
    expect(write('print(p, "w"); open(p)')).toBe(false);
    expect(write('open(p)', 'log(p, "w")')).toBe(false);
    expect(write('log(p, "w")')).toBeUndefined();
  });

  it("finds a bare Python error's path in the nearest source line, never in a frame header", () => {
    const bare = 'FileNotFoundError: [Errno 2] No such file or directory';
    expect(fs([...traceback('s.connect("/run/a.sock")', 'x = f("/run/b.sock")'), bare].join('\n'))).toEqual([
      { path: '/run/b.sock', code: 'ENOENT' },
    ]);
    expect(fs([...traceback('s.connect("/run/a.sock")', 'retry(s)'), bare].join('\n'))).toEqual([
      { path: '/run/a.sock', code: 'ENOENT' },
    ]);
    expect(fs([...traceback('s.connect(addr)'), bare].join('\n'))).toEqual([]);
    expect(fs([...traceback('s.connect("/run/a.sock")'), `${bare}; retrying`].join('\n'))).toEqual([]);
  });

  it('looks back 80 lines for that path, no further', () => {
    const at = (distance: number) =>
      fs(
        [
          '    s.connect("/run/a.sock")',
          ...Array(distance - 1).fill('    pass'),
          'OSError: [Errno 13] Permission denied',
        ].join('\n'),
      );
    expect(at(80)).toEqual([{ path: '/run/a.sock', code: 'EACCES' }]);
    expect(at(81)).toEqual([]);
  });

  it('reads Node errors: writes by their syscall, open as unknown, other calls as reads', () => {
    for (const call of [
      'mkdir',
      'rename',
      'unlink',
      'rmdir',
      'copyfile',
      'symlink',
      'link',
      'write',
      'chmod',
      'chown',
      'utime',
      'rm',
    ])
      expect(fs(`Error: EROFS: read-only file system, ${call} '/etc/x'`), call).toEqual([
        { path: '/etc/x', code: 'EROFS', write: true },
      ]);
    expect(fs("Error: ENOENT: no such file or directory, open '/etc/x'")).toEqual([
      { path: '/etc/x', code: 'ENOENT' },
    ]);
    expect(fs("Error: EACCES: permission denied, scandir '/proc/1/fdinfo/x'")).toEqual([
      { path: '/proc/1/fdinfo/x', code: 'EACCES', write: false },
    ]);
    expect(fs('Error: connect ENOENT /run/x.sock')).toEqual([
      { path: '/run/x.sock', code: 'ENOENT', write: false },
    ]);
  });

  it('reads shell and coreutils errors, with the path quoted, last or alone', () => {
    expect(fs("touch: cannot touch '/etc/y': Read-only file system")).toEqual([
      { path: '/etc/y', code: 'EROFS', write: true },
    ]);
    expect(fs('mkdir: cannot create directory ‘/etc/d’: Read-only file system')).toEqual([
      { path: '/etc/d', code: 'EROFS', write: true },
    ]);
    expect(fs("sed: cannot open '/etc/x' for writing: Permission denied")).toEqual([
      { path: '/etc/x', code: 'EACCES', write: true },
    ]);
    expect(fs('sh: 1: Cannot create /etc/z: Read-only file system')).toEqual([
      { path: '/etc/z', code: 'EROFS', write: true },
    ]);
    expect(fs('/skill/run.sh: line 3: /etc/x: Read-only file system')).toEqual([
      { path: '/etc/x', code: 'EROFS' },
    ]);
    expect(fs('cat: ./secret: Permission denied')).toEqual([
      { path: './secret', code: 'EACCES', write: false },
    ]);
    expect(fs('bash: ../up: No such file or directory')).toEqual([{ path: '../up', code: 'ENOENT' }]);
    expect(fs('ls: ~/x: Operation not permitted')).toEqual([{ path: '~/x', code: 'EPERM', write: false }]);
    expect(fs('cat: data/in.csv: No such file or directory')).toEqual([
      { path: 'data/in.csv', code: 'ENOENT', write: false },
    ]);
  });

  it('passes by what is not a path, and lines another reader already took', () => {
    expect(fs('grep: pattern: No such file or directory')).toEqual([]);
    expect(fs('error: the token is wrong: Permission denied')).toEqual([]);
    expect(fs('cat: a/b c: No such file or directory')).toEqual([]);
  });

  it('reads the Node permission model, a write by its permission', () => {
    const denied = (permission: string) =>
      fs(
        `Error: Access to this API has been restricted\n  code: 'ERR_ACCESS_DENIED',\n  permission: '${permission}',\n  resource: '/etc/y'`,
      );
    expect(denied('FileSystemWrite')).toEqual([{ path: '/etc/y', code: 'EACCES', write: true }]);
    expect(denied('FileSystemRead')).toEqual([{ path: '/etc/y', code: 'EACCES', write: false }]);
    expect(fs("resource: '/etc/y'")).toEqual([]);
  });

  it('reads the last 5000 lines only', () => {
    const error = "OSError: [Errno 30] Read-only file system: '/etc/x'";
    expect(fs([error, ...Array(5000).fill('noise')].join('\n'))).toEqual([]);
    expect(fs([error, ...Array(4999).fill('noise')].join('\r\n'))).toHaveLength(1);
  });
});

describe('network errors', () => {
  it('names host and port as each program prints them', () => {
    const cases: [string, { host: string | null; port: number | null }][] = [
      ['Error: connect ECONNREFUSED 127.0.0.1:4000', { host: '127.0.0.1', port: 4000 }],
      ['Error: connect ECONNREFUSED [::1]:3128', { host: '::1', port: 3128 }],
      ['Error: getaddrinfo ENOTFOUND API.Example.com', { host: 'api.example.com', port: null }],
      ['bash: /dev/tcp/1.2.3.4/80: Network is unreachable', { host: '1.2.3.4', port: 80 }],
      ['example.com: Name or service not known', { host: 'example.com', port: null }],
      ['ping: db.internal: Temporary failure in name resolution', { host: 'db.internal', port: null }],
      [
        "curl: (7) Failed to connect to localhost port 3128 after 0 ms: Couldn't connect to server",
        { host: 'localhost', port: 3128 },
      ],
      ['curl: (6) Could not resolve host: nonexistent.invalid', { host: 'nonexistent.invalid', port: null }],
      [
        'wget: unable to resolve host address ‘nonexistent.invalid’',
        { host: 'nonexistent.invalid', port: null },
      ],
      [
        'Resolving nonexistent.invalid (nonexistent.invalid)... failed: Name or service not known.',
        { host: 'nonexistent.invalid', port: null },
      ],
      ['Connecting to 10.0.0.1:8080... failed: Connection refused.', { host: '10.0.0.1', port: 8080 }],
      [
        'Connecting to localhost (localhost)|127.0.0.1|:9... failed: Connection refused.',
        { host: 'localhost', port: 9 },
      ],
    ];
    for (const [line, hit] of cases) expect(net(line), line).toEqual([hit]);
  });

  it("takes a target from the traceback's nearest source line when the error names none", () => {
    const error = 'urllib.error.URLError: <urlopen error [Errno 101] Network is unreachable>';
    const target = (...source: string[]) => net([...traceback(...source), error].join('\n'))[0];
    expect(target('urlopen("http://first.test/")', 'urlopen("https://API.Second.test:8443/x")')).toEqual({
      host: 'api.second.test',
      port: 8443,
    });
    expect(target('ws.connect("ws://[::1]/socket")')).toEqual({ host: '::1', port: null });
    expect(target('s.connect(("DB.test", 5432))')).toEqual({ host: 'db.test', port: 5432 });
    expect(target("s.connect(( 'db.test' , 5432 ))")).toEqual({ host: 'db.test', port: 5432 });
    expect(target("s.connect(('db.test',5432))")).toEqual({ host: 'db.test', port: 5432 });
    expect(target('s.connect(addr)')).toEqual({ host: null, port: null });
  });
});

describe('environment errors', () => {
  it('reads a KeyError only beside an environment lookup, and bash unset variables', () => {
    expect(scanStderr("    os.environ['TOKEN']\nKeyError: 'TOKEN'").env).toEqual(['TOKEN']);
    expect(scanStderr("    os.getenv('X')['TOKEN']\nKeyError: 'TOKEN'").env).toEqual(['TOKEN']);
    expect(scanStderr("    row['TOKEN']\nKeyError: 'TOKEN'").env).toEqual([]);
    expect(scanStderr('/s.sh: line 2: TOKEN: unbound variable').env).toEqual(['TOKEN']);
    expect(scanStderr('/s.sh: line 2: TOKEN: parameter null or not set').env).toEqual(['TOKEN']);
  });

  it('takes the capitalized names of a line that says a variable is missing', () => {
    expect(scanStderr('Error: API_TOKEN is not set; see README').env).toEqual(['API_TOKEN', 'README']);
    expect(scanStderr('a value is required').env).toEqual([]);
  });
});

describe('hostile output', () => {
  // The scan runs on the engine's thread after every run: a skill's stderr (up to the 1 MiB
  // output cap) must not stall it. An unanchored `(.*?): Permission denied` was quadratic in a
  // line's length: one 1 MiB line without a newline held the engine for minutes.
  it('scans a 1 MiB stderr of long lines quickly, whatever repeats in them', () => {
    const tokens = ['a', 'cannot open ', 'EROFS: ', '[Errno 13] ', 'Resolving ', "open('", 'x: ', '/a/'];
    for (const token of tokens) {
      for (const width of [1024 * 1024, 4000]) {
        const line = token.repeat(Math.ceil(width / token.length)).slice(0, width);
        const stderr = `${line}\n`.repeat(Math.floor((1024 * 1024) / (width + 1)));
        const started = performance.now();
        scanStderr(stderr);
        expect(performance.now() - started, `${JSON.stringify(token)} × ${width}`).toBeLessThan(1500);
      }
    }
    // A real error line keeps being read beside the flood.
    const flood = 'x'.repeat(1024 * 1024 - 100);
    expect(fs(`${flood}\nbash: /etc/x: Read-only file system`)).toEqual([{ path: '/etc/x', code: 'EROFS' }]);
  }, 60_000);

  it('reads lines built against one pattern in one pass, and the error beside them', () => {
    // Each pattern here rescanned such a 200 KB line from every repeat of its first words.
    const timed = (stderr: string) => {
      const started = performance.now();
      const hits = scanStderr(stderr);
      return { hits, ms: performance.now() - started };
    };
    const wget = timed(
      [
        `${'Connecting to x ('.repeat(12_000)}: Connection refused`,
        `${'Resolving x ('.repeat(15_000)}: Name or service not known`,
        'Connecting to localhost (localhost)|127.0.0.1|:9... failed: Connection refused.',
      ].join('\n'),
    );
    expect(wget.ms).toBeLessThan(1000);
    expect(wget.hits.net).toEqual([
      { host: null, port: null },
      { host: null, port: null },
      { host: 'localhost', port: 9 },
    ]);

    const shell = timed(`${'cannot open '.repeat(16_000)}/x: Permission denied`);
    expect(shell.ms).toBeLessThan(1000);
    expect(shell.hits.fs).toEqual([{ path: '/x', code: 'EACCES' }]);
    expect(fs("sh: cannot open '/etc/x' for writing: Permission denied")).toEqual([
      { path: '/etc/x', code: 'EACCES', write: true },
    ]);

    const python = timed(
      [
        ...traceback(`f = ${'open(,"'.repeat(28_000)}`),
        "PermissionError: [Errno 13] Permission denied: '/etc/x'",
      ].join('\n'),
    );
    expect(python.ms).toBeLessThan(1000);
    expect(python.hits.fs).toEqual([{ path: '/etc/x', code: 'EACCES', write: false }]);
  }, 60_000);
});
