/**
 * The enforcement probes (issue 7 tests), each a small script in Python, Bash and Node.
 * Targets are written into the scripts literally, as a real script would have them.
 */

export type Lang = 'python' | 'bash' | 'node';
export const LANGS: Lang[] = ['python', 'bash', 'node'];
const EXT: Record<Lang, string> = { python: 'py', bash: 'sh', node: 'js' };

export type ProbeName =
  | 'write_outside'
  | 'write_home'
  | 'read_ssh'
  | 'read_creds'
  | 'read_shadow'
  | 'allowed_files'
  | 'loopback'
  | 'allowlist'
  | 'env'
  | 'grandchild'
  | 'flood'
  | 'bigfile'
  | 'forks'
  | 'memory'
  | 'socket';

export interface ProbeContext {
  /** A system path outside every grant (e.g. /etc/skilldeck-probe-1234). */
  outsidePath: string;
  /** A readable file granted to the skill. */
  grantedFile: string;
  /** The loopback test server's port. */
  port: number;
  /** A host unix socket the test listens on. */
  socketPath: string;
  /** The grandchild runs `sleep MARKER` + a digit per language (1 python, 2 bash, 3 node), found in /proc by it. */
  sleepMarker: string;
  secretVar: string;
  allowedVar: string;
}

// `probe_` prefix: a script named socket.py would shadow Python's socket module.
export const probeFile = (probe: ProbeName, lang: Lang) => `scripts/probe_${probe}.${EXT[lang]}`;

const PY: Record<ProbeName, (c: ProbeContext) => string> = {
  write_outside: (c) => `open(${q(c.outsidePath)}, "w").write("x")\n`,
  write_home: () => `import os\nopen(os.path.expanduser("~/notes/new.txt"), "w").write("x")\n`,
  read_ssh: () => `import os\nprint(open(os.path.expanduser("~/.ssh/id_rsa")).read())\n`,
  read_creds: () =>
    `import os\nprint(open(os.path.expanduser("~/notes.txt")).read())\nprint(open(os.path.expanduser("~/.netrc")).read())\n`,
  read_shadow: () => `print(open("/etc/shadow").read())\n`,
  allowed_files: (c) =>
    `import os\nos.makedirs("out", exist_ok=True)\nopen("out/ok.txt", "w").write("ok")\nprint(open(${q(c.grantedFile)}).read().strip())\nprint(os.environ[${q(c.allowedVar)}])\n`,
  loopback: (c) =>
    `import urllib.request\nprint(urllib.request.urlopen("http://127.0.0.1:${c.port}/", timeout=5).read().decode())\n`,
  allowlist: (c) =>
    [
      'import urllib.request, urllib.error',
      `print(urllib.request.urlopen("http://allowed.test:${c.port}/", timeout=5).read().decode())`,
      'try:',
      `    urllib.request.urlopen("http://denied.test:${c.port}/", timeout=5)`,
      'except urllib.error.HTTPError as e:',
      '    print("denied.test answered", e.code)',
      '    raise SystemExit(3)',
      '',
    ].join('\n'),
  env: (c) =>
    `import os\nprint("allowed=" + os.environ[${q(c.allowedVar)}])\nprint(os.environ[${q(c.secretVar)}])\n`,
  grandchild: (c) =>
    `import subprocess, time\nsubprocess.Popen(["sleep", ${q(sleepArg(c, 'python'))}], start_new_session=True)\nprint("started", flush=True)\ntime.sleep(60)\n`,
  flood: () => `import sys\nwhile True:\n    sys.stdout.write("x" * 65536)\n`,
  bigfile: () =>
    `import os\nos.makedirs("out", exist_ok=True)\nwith open("out/big.bin", "wb") as f:\n    for _ in range(${BIG_CHUNKS}):\n        f.write(b"x" * 65536)\nprint("wrote it all")\n`,
  forks: () =>
    `import subprocess\nkids = [subprocess.Popen(["sleep", "5"]) for _ in range(${FORKS})]\nprint("started", len(kids))\n`,
  memory: () => `b = bytearray(${MEMORY_MIB} * 1024 * 1024)\nprint("allocated", len(b) >> 20)\n`,
  socket: (c) =>
    `import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect(${q(c.socketPath)})\nprint(s.recv(100).decode())\n`,
};

const SH: Record<ProbeName, (c: ProbeContext) => string> = {
  write_outside: (c) => `echo x > ${c.outsidePath}\n`,
  write_home: () => `echo x > ~/notes/new.txt\n`,
  read_ssh: () => `cat ~/.ssh/id_rsa\n`,
  read_creds: () => `set -e\ncat ~/notes.txt ~/.netrc\n`,
  read_shadow: () => `cat /etc/shadow\n`,
  allowed_files: (c) =>
    `set -e\nmkdir -p out\necho ok > out/ok.txt\ncat ${c.grantedFile}\necho "$${c.allowedVar}"\n`,
  loopback: (c) =>
    `exec 3<>/dev/tcp/127.0.0.1/${c.port}\nprintf 'GET / HTTP/1.0\\r\\nHost: 127.0.0.1:${c.port}\\r\\n\\r\\n' >&3\ncat <&3\n`,
  allowlist: (c) =>
    [
      'set -e',
      'proxy=${HTTP_PROXY#http://}; phost=${proxy%:*}; pport=${proxy##*:}',
      'fetch() {',
      '  exec 3<>"/dev/tcp/$phost/$pport"',
      `  printf 'GET http://%s/ HTTP/1.0\\r\\nHost: %s\\r\\n\\r\\n' "$1" "$1" >&3`,
      '  cat <&3',
      '  exec 3<&-',
      '}',
      `fetch allowed.test:${c.port}`,
      `if ! fetch denied.test:${c.port} | grep -q ' 200 '; then echo "denied.test refused" >&2; exit 3; fi`,
      '',
    ].join('\n'),
  env: (c) => `set -u\necho "allowed=$${c.allowedVar}"\necho "$${c.secretVar}"\n`,
  grandchild: (c) => `setsid sleep ${sleepArg(c, 'bash')} &\necho started\nsleep 60\n`,
  flood: () => `yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n`,
  bigfile: () =>
    `set -e\nmkdir -p out\nhead -c ${BIG_CHUNKS * 65536} /dev/zero > out/big.bin\necho wrote it all\n`,
  forks: () => `for i in $(seq ${FORKS}); do sleep 5 & done\necho started\n`,
  // Bash pads a string to MEMORY_MIB MiB in one allocation (a command substitution that reads
  // as much takes 19 s on a loaded 2-core machine, past the run's time limit; this takes 5).
  memory: () =>
    `export LC_ALL=C\nprintf -v x '%*s' $((${MEMORY_MIB} * 1024 * 1024)) ''\necho allocated $(( \${#x} >> 20 ))\n`,
  // Only from the socket (-u): reading stdin's end at once, socat would close the connection,
  // on a loaded machine before the server had written (its EPIPE, and nothing read here).
  socket: (c) => `socat -u UNIX-CONNECT:${c.socketPath} - </dev/null\n`,
};

const JS: Record<ProbeName, (c: ProbeContext) => string> = {
  write_outside: (c) => `require('fs').writeFileSync(${q(c.outsidePath)}, 'x');\n`,
  write_home: () => `require('fs').writeFileSync(require('os').homedir() + '/notes/new.txt', 'x');\n`,
  read_ssh: () =>
    `console.log(require('fs').readFileSync(require('os').homedir() + '/.ssh/id_rsa', 'utf8'));\n`,
  read_shadow: () => `console.log(require('fs').readFileSync('/etc/shadow', 'utf8'));\n`,
  read_creds: () =>
    `const fs = require('fs');\nconst home = require('os').homedir();\nconsole.log(fs.readFileSync(home + '/notes.txt', 'utf8'));\nconsole.log(fs.readFileSync(home + '/.netrc', 'utf8'));\n`,
  allowed_files: (c) =>
    `const fs = require('fs');\nfs.mkdirSync('out', { recursive: true });\nfs.writeFileSync('out/ok.txt', 'ok');\nconsole.log(fs.readFileSync(${q(c.grantedFile)}, 'utf8').trim());\nconsole.log(process.env[${q(c.allowedVar)}]);\n`,
  loopback: (c) =>
    `require('http').get('http://127.0.0.1:${c.port}/', (r) => r.pipe(process.stdout)).on('error', (e) => { console.error(e.message); process.exit(1); });\n`,
  allowlist: (c) =>
    [
      "const http = require('http');",
      'const proxy = new URL(process.env.HTTP_PROXY);',
      'function via(target) {',
      '  return new Promise((resolve, reject) => {',
      "    const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target });",
      "    req.on('connect', (res, sock) => {",
      '      if (res.statusCode !== 200) { sock.destroy(); return resolve({ status: res.statusCode }); }',
      "      let body = '';",
      "      sock.on('data', (d) => (body += d));",
      "      sock.on('end', () => resolve({ status: 200, body }));",
      "      sock.write('GET / HTTP/1.0\\r\\nHost: ' + target + '\\r\\n\\r\\n');",
      '    });',
      "    req.on('error', reject);",
      '    req.end();',
      '  });',
      '}',
      '(async () => {',
      `  const ok = await via('allowed.test:${c.port}');`,
      '  console.log(ok.body);',
      `  const denied = await via('denied.test:${c.port}');`,
      "  console.error('denied.test answered', denied.status);",
      '  process.exit(denied.status === 200 ? 0 : 3);',
      '})();',
      '',
    ].join('\n'),
  env: (c) =>
    `console.log('allowed=' + process.env[${q(c.allowedVar)}]);\nif (process.env[${q(c.secretVar)}] === undefined) { console.error('${c.secretVar} is not set'); process.exit(2); }\nconsole.log(process.env[${q(c.secretVar)}]);\n`,
  grandchild: (c) =>
    `require('child_process').spawn('sleep', [${q(sleepArg(c, 'node'))}], { detached: true, stdio: 'ignore' }).unref();\nconsole.log('started');\nsetTimeout(() => {}, 60000);\n`,
  flood: () =>
    `const s = 'x'.repeat(65536);\n(function w() { while (process.stdout.write(s)); process.stdout.once('drain', w); })();\n`,
  bigfile: () =>
    `const fs = require('fs');\nfs.mkdirSync('out', { recursive: true });\nconst fd = fs.openSync('out/big.bin', 'w');\nfor (let i = 0; i < ${BIG_CHUNKS}; i++) fs.writeSync(fd, Buffer.alloc(65536, 120));\nconsole.log('wrote it all');\n`,
  forks: () =>
    `const { spawn } = require('child_process');\nlet n = 0;\nfor (let i = 0; i < ${FORKS}; i++) {\n  const kid = spawn('sleep', ['5'], { stdio: 'ignore' });\n  kid.on('error', (e) => { console.error(e.message); process.exit(1); });\n  n++;\n}\nsetTimeout(() => console.log('started', n), 500);\n`,
  memory: () =>
    `const b = Buffer.alloc(${MEMORY_MIB} * 1024 * 1024, 1);\nconsole.log('allocated', b.length >> 20);\n`,
  socket: (c) =>
    `require('net').connect(${q(c.socketPath)}).on('data', (d) => { console.log(String(d)); process.exit(0); }).on('error', (e) => { console.error(e.message); process.exit(1); });\n`,
};

/** The bigfile probe writes this many 64 KiB chunks (3 MiB): past a 1 MiB file-size limit. */
export const BIG_CHUNKS = 48;
/** The memory probe allocates (and touches) this many MiB: past a limit of a few hundred. */
export const MEMORY_MIB = 512;
/** The forks probe starts this many `sleep`s: past a limit of a few dozen processes. */
export const FORKS = 120;

/** The grandchild's `sleep` argument for one language: unique, so /proc tells whether it survived. */
export function sleepArg(c: ProbeContext, lang: Lang): string {
  return `${c.sleepMarker}${LANGS.indexOf(lang) + 1}`;
}

function q(s: string): string {
  return JSON.stringify(s);
}

/** Every probe script for every language, as `writeTree` input (relative path → text). */
export function probeTree(c: ProbeContext): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const [lang, table] of [
    ['python', PY],
    ['bash', SH],
    ['node', JS],
  ] as const) {
    for (const probe of Object.keys(table) as ProbeName[]) tree[probeFile(probe, lang)] = table[probe](c);
  }
  return tree;
}
