import path from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { Fields, isMap, type YamlMap } from './fields';
import type { LayerBuilder } from './layerBuilder';

/**
 * Execution fields (DESIGN §2): `permissions` (an object, or apex-bridge's list of names),
 * `execution_policy`, `approval`, apex-bridge `timeout` / `dangerous` / `confirm`, `entrypoints`.
 */
export function readExecution(b: LayerBuilder, data: YamlMap): void {
  const { f } = b;
  const perms = data.permissions;
  if (Array.isArray(perms) || typeof perms === 'string') {
    b.add('permissions.named', f.list(perms, 'permissions', /[\s,]+/));
  } else {
    const p = f.map(perms, 'permissions');
    const fs = f.map(p?.filesystem ?? p?.fs, 'permissions.filesystem');
    b.add('permissions.filesystem.read', f.list(fs?.read, 'permissions.filesystem.read'));
    b.add('permissions.filesystem.write', f.list(fs?.write, 'permissions.filesystem.write'));
    const net = p?.network;
    b.set('permissions.network.outbound', outbound(f, isMap(net) ? net.outbound : net));
    const env = p?.environment ?? p?.env;
    b.add(
      'permissions.environment.allow',
      f.list(isMap(env) ? env.allow : env, 'permissions.environment.allow'),
    );
    b.add('permissions.named', f.list(p?.named, 'permissions.named'));
  }
  const policy = f.map(data.execution_policy, 'execution_policy');
  b.set('execution.sandbox', sandbox(f, policy?.sandbox));
  const approvals = ['ask', 'auto', 'deny'] as const;
  b.set('execution.approval', f.oneOf(policy?.approval, 'execution_policy.approval', approvals));
  b.set('execution.approval', f.oneOf(data.approval, 'approval', approvals));
  // Routing spec: execution_policy.timeout is in seconds; apex-bridge `timeout` is in ms.
  b.set('execution.timeoutMs', f.duration(policy?.timeout, 'execution_policy.timeout', 's'));
  b.set('execution.timeoutMs', f.duration(data.timeout, 'timeout', 'ms'));
  b.set('execution.dangerous', f.bool(data.dangerous, 'dangerous'));
  const confirm = data.confirm;
  if (typeof confirm === 'string' && !/^(true|false|yes|no|on|off)$/i.test(confirm.trim())) {
    const message = confirm.trim();
    if (message) {
      b.set('execution.confirm', true);
      b.set('execution.confirmMessage', message);
    }
  } else b.set('execution.confirm', f.bool(confirm, 'confirm'));
  b.set('entrypoints', entrypoints(f, data.entrypoints));
}

function outbound(f: Fields, v: unknown): boolean | string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', 'on', 'any', 'all', '*'].includes(s)) return true;
    if (['false', 'no', 'off', 'none'].includes(s)) return false;
  }
  const list = f.list(v, 'permissions.network.outbound', /[\s,]+/);
  if (!list) return undefined;
  return list.includes('*') ? true : list;
}

function sandbox(f: Fields, v: unknown): 'none' | 'process' | 'os' | undefined {
  if (typeof v === 'boolean') return v ? 'os' : 'none';
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim()))
    return v.trim().toLowerCase() === 'true' ? 'os' : 'none';
  return f.oneOf(v, 'execution_policy.sandbox', ['none', 'process', 'os'] as const);
}

type Entrypoint = { name: string; path: string; description?: string };

/**
 * An entrypoint's default name: its script's base name without the extension, from a command
 * line as a shell splits it (`python3 scripts/sum.py "{{input.file}}"` is `sum`).
 */
function scriptName(command: string): string {
  const words = parseShell(command).filter((t): t is string => typeof t === 'string');
  const script = words.find((w) => w.includes('/')) ?? words.find((w) => /\.[A-Za-z0-9]+$/.test(w));
  return path.basename(script ?? words[words.length - 1] ?? command).replace(/\.[^.]+$/, '');
}

/** `entrypoints:` as a list of paths or `{ name, path|file|script|command }`, or a name → path map. */
function entrypoints(f: Fields, v: unknown): Entrypoint[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const items: [string | undefined, unknown][] = Array.isArray(v)
    ? v.map((item) => [undefined, item])
    : isMap(v)
      ? Object.entries(v)
      : typeof v === 'string'
        ? [[undefined, v]]
        : [];
  if (items.length === 0 && !Array.isArray(v)) return f.wrong('entrypoints', 'a list of `{ name, path }`', v);
  const out: Entrypoint[] = [];
  for (const [key, item] of items) {
    const spec = isMap(item) ? item : { path: item };
    const file = f.str(
      spec.path ?? spec.file ?? spec.script ?? spec.command ?? spec.run,
      'entrypoints[].path',
    );
    if (!file) {
      f.wrong('entrypoints[]', 'a path or `{ name, path }`', item);
      continue;
    }
    const name = f.str(spec.name, 'entrypoints[].name') ?? key ?? scriptName(file);
    const description = f.str(spec.description, 'entrypoints[].description');
    out.push(description ? { name, path: file, description } : { name, path: file });
  }
  return out;
}
