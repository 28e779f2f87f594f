/**
 * Reads OS errors out of a script's stderr, as Python, Bash/coreutils, Node (and curl,
 * wget, socat) print them. Only extraction happens here; violations.ts judges each hit
 * against the grants.
 */

import { inOrderOnALine } from './limits';

/** EBUSY: a mount point the sandbox keeps in place was moved or removed (violations.ts). */
export type FsCode = 'EROFS' | 'EACCES' | 'EPERM' | 'ENOENT' | 'EBUSY';

export interface FsHit {
  path: string;
  code: FsCode;
  /** Known to be a write (Node's ERR_ACCESS_DENIED FileSystemWrite, a `cannot create` message), when known. */
  write?: boolean;
  /** EBUSY on a rename: the other name on the line (`a -> b`, `cannot move 'a' to 'b'`); either may be the mount point. */
  to?: string;
}

export interface NetHit {
  host: string | null;
  port: number | null;
}

export interface StderrHits {
  fs: FsHit[];
  net: NetHit[];
  /** Environment variable names a script missed. */
  env: string[];
}

const MAX_LINES = 5000;
/**
 * How far back a Python error without a target looks for one in the traceback's source
 * lines: a urlopen failure sits below a dozen urllib frames and a chained traceback.
 */
const LOOKBACK = 80;
/** Traceback frame headers (`File "/usr/lib/python3.11/socket.py", line 3`) are not targets. */
const FRAME_HEADER = /^\s*File "/;

const PHRASE_CODE: Record<string, FsCode> = {
  'read-only file system': 'EROFS',
  'permission denied': 'EACCES',
  'operation not permitted': 'EPERM',
  'no such file or directory': 'ENOENT',
  'device or resource busy': 'EBUSY',
};
const ERRNO_CODE: Record<string, FsCode> = {
  '30': 'EROFS',
  '13': 'EACCES',
  '1': 'EPERM',
  '2': 'ENOENT',
  '16': 'EBUSY',
};

// Python: `OSError: [Errno 30] Read-only file system: '/etc/x'` (repr quotes: '…' or "…").
const PY_FS = /\[Errno (\d+)\] [^:\]\n]+?: (?:'((?:[^'\\]|\\.)+)'|"((?:[^"\\]|\\.)+)")/;
// Python without a path (socket.connect): the path, if any, is in the traceback's source lines.
const PY_FS_BARE = /\[Errno (30|13|1|2)\] [A-Za-z -]+$/;
// Node: `Error: EROFS: read-only file system, open '/etc/x'`. The description holds no colon,
// so a line of repeated `EROFS: ` is not rescanned to its end from each one.
const NODE_FS = /\b(EROFS|EACCES|EPERM|ENOENT|EBUSY): [^,:\n]+, (\w+) '([^']+)'/;
// Node: `Error: connect ENOENT /run/x.sock`.
const NODE_SOCK = /\bconnect (ENOENT|EACCES) (\/\S+)/;
// Shells and coreutils: `bash: /etc/x: Read-only file system`, `touch: cannot touch '/etc/y': …`.
// Found by its phrase, then everything before it is the prefix: `(.*?): phrase` unanchored
// retried from every offset, quadratic in a line's length.
const SHELL_FS_PHRASE =
  /: (Read-only file system|Permission denied|Operation not permitted|No such file or directory|Device or resource busy)\b/i;
function shellFs(line: string): [prefix: string, phrase: string] | null {
  const m = SHELL_FS_PHRASE.exec(line);
  return m ? [line.slice(0, m.index), m[1]] : null;
}
const QUOTED = /[‘'"]([^‘’'"\n]+)[’'"]/;
const PY_WRITE =
  /\.(?:write_text|write_bytes|mkdir|touch)\(|\bos\.(?:makedirs|mkdir|rename|replace|remove)\(|\bshutil\.(?:copy\w*|move)\(/;
/** `open(p, "w")`, `open(p, mode='a')`: a mode that writes, after an `open(` on the comma's line. */
const PY_OPEN_MODE = /,\s*(?:mode\s*=\s*)?['"][^'"]*[wax+]/g;
/** A traceback source line that opens for reading (after PY_WRITE found no write). */
const PY_READ = /\bopen\(|\.(?:read_text|read_bytes|open)\(|\bos\.(?:listdir|scandir|stat)\(/;
const WRITE_VERBS = /cannot (create|touch|remove|make|write|move|copy)/i;
/** Coreutils and shell commands that only read the path they name (`cat: ~/x: No such file…`). */
const READ_COMMANDS =
  /^(?:cat|head|tail|less|more|grep|egrep|fgrep|wc|sort|uniq|diff|cmp|stat|ls|file|md5sum|sha\d+sum|source|\.|jq|sed|awk)\b/;
const NODE_WRITE_SYSCALLS = new Set([
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
]);

const NET_PHRASES =
  /Network is unreachable|No route to host|Temporary failure in name resolution|Name or service not known|Connection refused|Could not resolve host|Couldn't connect to server|unable to resolve host address/i;
const NET_CODES =
  /\b(ENETUNREACH|EHOSTUNREACH|EAI_AGAIN|ENOTFOUND|ECONNREFUSED)\b|\bgetaddrinfo\b|\bconnect EPERM\b/;
const NET_TARGETS: { re: RegExp; host: number; port?: number }[] = [
  {
    // Node prints IPv6 bare (`::1:3128`): the host takes all but the last `:port`.
    re: /\bconnect (?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|ETIMEDOUT|EPERM) \[?([0-9a-fA-F.:]+)\]?:(\d+)\b/,
    host: 1,
    port: 2,
  },
  { re: /\bgetaddrinfo (?:EAI_AGAIN|ENOTFOUND|EAI_NONAME|EAI_FAIL) ([^\s'",]+)/, host: 1 },
  { re: /\/dev\/(?:tcp|udp)\/([^/\s]+)\/(\d+): /, host: 1, port: 2 },
  // wget: `Resolving example.com (example.com)... failed: Name or service not known.`
  // A host name holds no parenthesis: `\([^)]*\)` ran to the line's end after every `Resolving x (`.
  { re: /Resolving ([^\s(]+) \([^()]*\)\.\.\. failed/, host: 1 },
  {
    re: /(?:^|\s)([A-Za-z0-9][\w.-]*): (?:Temporary failure in name resolution|Name or service not known)/,
    host: 1,
  },
  { re: /Failed to connect to (\S+) port (\d+)/, host: 1, port: 2 },
  { re: /Could not resolve (?:host|proxy): ([^\s;]+)/, host: 1 },
  { re: /unable to resolve host address [‘'"]([^’'"]+)[’'"]/, host: 1 },
  // wget: `Connecting to 10.0.0.1:80... failed` or `Connecting to example.com (example.com)|1.2.3.4|:80... failed`.
  { re: /Connecting to ([^\s|:]+)(?: \([^()]*\))?(?:\|[^|]*\|)?:(\d+)\.\.\. failed/, host: 1, port: 2 },
];
// Traceback source lines: `urlopen("http://127.0.0.1:4000/")`, `connect(("127.0.0.1", 4000))`.
const SRC_URL = /\b(?:https?|wss?):\/\/(?:\[([^\]\s]+)\]|([^/\s'":]+))(?::(\d+))?/;
const SRC_TUPLE = /\(\s*['"]([^'"]+)['"]\s*,\s*(\d+)\s*\)/;
const SRC_PATH = /['"](\/[^'"\n]+)['"]/;

const ENV_PATTERNS = [
  /KeyError: '([A-Za-z_][A-Za-z0-9_]*)'/, // Python os.environ['X'] (checked for "environ" nearby)
  /\b([A-Za-z_][A-Za-z0-9_]*): (?:unbound variable|parameter null or not set|parameter not set)/, // bash set -u, ${X:?}
];
const ENV_WORDS = /\b(not set|is unset|missing|undefined|is required|environment variable)\b/i;

function looksLikePath(p: string): boolean {
  return (
    p.startsWith('/') ||
    p.startsWith('./') ||
    p.startsWith('../') ||
    p.startsWith('~/') ||
    /^[\w.-]+\/[\w./-]*$/.test(p)
  );
}

/**
 * Whether the source lines open a file for writing. As one pattern, `open\(.*,` tried every comma
 * after every `open(` of a line, quadratic; the first `open(` of a line is enough.
 */
function opensForWriting(source: string): boolean {
  let start = 0;
  for (const line of source.split('\n')) {
    const at = line.search(/\bopen\(/);
    if (at >= 0) {
      PY_OPEN_MODE.lastIndex = start + at;
      const mode = PY_OPEN_MODE.exec(source);
      // Stryker disable next-line EqualityOperator: at a line's end is its '\n', never the ',' a mode starts with
      if (mode && mode.index < start + line.length) return true;
    }
    start += line.length + 1;
  }
  return false;
}

function unescapePy(s: string): string {
  return s.replace(/\\(['"\\])/g, '$1');
}

/** Extracts file, network and environment errors from stderr. */
export function scanStderr(stderr: string): StderrHits {
  const lines = stderr.split(/\r?\n/).slice(-MAX_LINES);
  const fs: FsHit[] = [];
  const net: NetHit[] = [];
  const env = new Set<string>();
  const nodeAccess = /ERR_ACCESS_DENIED/.test(stderr);

  lines.forEach((line, i) => {
    const before = () => lines.slice(Math.max(0, i - LOOKBACK), i).filter((l) => !FRAME_HEADER.test(l));
    let m: RegExpExecArray | null;
    let shell: ReturnType<typeof shellFs>;
    if ((m = PY_FS.exec(line))) {
      const code = ERRNO_CODE[m[1]];
      // The traceback's last source line tells a write (`open(p, "w")`, `mkdir`) from a read.
      const source = lines.slice(Math.max(0, i - 3), i).join('\n');
      const write =
        PY_WRITE.test(source) || opensForWriting(source) ? true : PY_READ.test(source) ? false : undefined;
      if (code) fs.push({ path: unescapePy(m[2] ?? m[3]), code, ...(write === undefined ? {} : { write }) });
    } else if ((m = PY_FS_BARE.exec(line))) {
      const code = ERRNO_CODE[m[1]];
      const src = before()
        .reverse()
        .map((l) => SRC_PATH.exec(l))
        .find((x) => x !== null);
      if (code && src) fs.push({ path: src[1], code });
    } else if ((m = NODE_FS.exec(line))) {
      // `open` may be either; stat, scandir, access, readlink … are reads.
      const write = NODE_WRITE_SYSCALLS.has(m[2]) ? true : m[2] === 'open' ? undefined : false;
      fs.push({ path: m[3], code: m[1] as FsCode, ...(write === undefined ? {} : { write }) });
    } else if ((m = NODE_SOCK.exec(line))) {
      fs.push({ path: m[2], code: m[1] as FsCode, write: false });
    } else if ((shell = shellFs(line)) && !/\[Errno|\b(EROFS|EACCES|EPERM|ENOENT|EBUSY):/.test(line)) {
      // Stryker disable next-line StringLiteral: split always returns one element at least
      const seg = shell[0].split(': ').pop() ?? '';
      const quoted = QUOTED.exec(seg);
      // The last word, or the whole segment when it has none.
      // Stryker disable next-line StringLiteral: split always returns one element at least
      const candidate = quoted ? quoted[1] : (seg.split(/\s/).pop() ?? '');
      // A bare name is a path too where the file system was read-only: the script changed folder.
      const bare =
        ['read-only file system', 'device or resource busy'].includes(shell[1].toLowerCase()) &&
        /^[^\s/~]+$/.test(candidate);
      if (looksLikePath(candidate) || bare) {
        fs.push({
          path: candidate,
          code: PHRASE_CODE[shell[1].toLowerCase()],
          ...(WRITE_VERBS.test(seg) || inOrderOnALine(seg, /cannot open /i, / for writing/i)
            ? { write: true }
            : READ_COMMANDS.test(shell[0])
              ? { write: false }
              : {}),
        });
      }
    }

    if (NET_PHRASES.test(line) || NET_CODES.test(line)) {
      const hit = netTarget(line) ?? sourceTarget(before());
      net.push(hit ?? { host: null, port: null });
    }

    for (const re of ENV_PATTERNS) {
      const e = re.exec(line);
      if (!e) continue;
      if (re === ENV_PATTERNS[0] && ![line, ...before()].some((l) => /environ|getenv/.test(l))) continue;
      env.add(e[1]);
    }
    if (ENV_WORDS.test(line)) {
      for (const word of line.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? []) env.add(word);
    }
  });

  if (nodeAccess) {
    const resource = /resource: '([^']+)'/.exec(stderr);
    const permission = /permission: '(\w+)'/.exec(stderr);
    if (resource)
      fs.push({ path: resource[1], code: 'EACCES', write: permission?.[1] === 'FileSystemWrite' });
  }
  return {
    fs: fs.map((hit) => (hit.code === 'EBUSY' ? withOtherName(hit, lines) : hit)),
    net,
    env: [...env],
  };
}

/** The second quoted name on the line of a busy rename, if any. */
function withOtherName(hit: FsHit, lines: string[]): FsHit {
  const line = lines.find((l) => /busy/i.test(l) && l.includes(hit.path));
  const names = [...(line ?? '').matchAll(/[‘'"]([^‘’'"\n]+)[’'"]/g)].map((m) => m[1]);
  const to = names.find((n, i) => i > 0 && n !== hit.path && names[i - 1] === hit.path);
  return to ? { ...hit, to } : hit;
}

function netTarget(line: string): NetHit | null {
  for (const t of NET_TARGETS) {
    const m = t.re.exec(line);
    if (m) return { host: m[t.host].toLowerCase(), port: t.port && m[t.port] ? Number(m[t.port]) : null };
  }
  return null;
}

function sourceTarget(lines: string[]): NetHit | null {
  for (const l of [...lines].reverse()) {
    const url = SRC_URL.exec(l);
    if (url) return { host: (url[1] ?? url[2]).toLowerCase(), port: url[3] ? Number(url[3]) : null };
    const tuple = SRC_TUPLE.exec(l);
    if (tuple) return { host: tuple[1].toLowerCase(), port: Number(tuple[2]) };
  }
  return null;
}
