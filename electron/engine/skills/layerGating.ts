import type { Problem } from '../../../shared/contract';
import { Fields, isMap, normalizeOs, type YamlMap } from './fields';
import { parseJson5ish } from './json5ish';
import type { LayerBuilder } from './layerBuilder';
import { warning } from './problems';

/** OpenClaw's metadata block, under its current and legacy names. */
const OPENCLAW_KEYS = ['openclaw', 'clawdbot', 'moltbot'];

/** Gating from OpenClaw `requires`, routing `prerequisites`, Hermes `platforms` / env vars. */
export function readRequires(b: LayerBuilder, data: YamlMap, prefix = ''): void {
  const { f } = b;
  for (const [key, label] of [
    ['requires', `${prefix}requires`],
    ['prerequisites', `${prefix}prerequisites`],
  ] as const) {
    const r = f.map(data[key], label);
    if (!r) continue;
    b.add('requires.bins', f.list(r.bins, `${label}.bins`));
    b.add('requires.anyBins', f.list(r.anyBins, `${label}.anyBins`));
    b.add('requires.env', f.list(r.env, `${label}.env`));
    b.add('requires.config', f.list(r.config, `${label}.config`));
    b.add('requires.os', f.list(r.os, `${label}.os`)?.map(normalizeOs));
  }
  b.add('requires.os', f.list(data.os, `${prefix}os`)?.map(normalizeOs));
  b.add('requires.os', f.list(data.platforms, `${prefix}platforms`)?.map(normalizeOs));
  const vars = data.required_environment_variables;
  if (Array.isArray(vars)) {
    b.add(
      'requires.env',
      vars
        .map((v) =>
          isMap(v)
            ? f.str(v.name, 'required_environment_variables[].name')
            : f.str(v, 'required_environment_variables[]'),
        )
        .filter((v): v is string => !!v),
    );
  } else b.add('requires.env', f.list(vars, 'required_environment_variables'));
  b.set('install', installList(f, data.install, `${prefix}install`));
}

function installList(f: Fields, v: unknown, field: string): YamlMap[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const items = Array.isArray(v) ? v : [v];
  const out = items.filter(isMap);
  if (out.length < items.length)
    f.wrong(
      `${field}[]`,
      'a mapping such as `{ kind: brew, formula: x }`',
      items.find((i) => !isMap(i)),
    );
  return out;
}

/**
 * `metadata`: kept as written, and read for OpenClaw's block (`openclaw`, legacy `clawdbot`,
 * `moltbot`: requires, os, always, emoji, homepage, install, primaryEnv) and Hermes' tags.
 */
export function readMetadata(b: LayerBuilder, data: YamlMap, problems: Problem[]): void {
  const { f } = b;
  let meta: unknown = data.metadata;
  if (typeof meta === 'string' && /^\s*\{/.test(meta)) {
    // OpenClaw re-reads nested metadata as JSON5; a quoted JSON string is read the same way.
    const parsed = parseJson5ish(meta);
    if (isMap(parsed)) {
      meta = parsed;
      problems.push(
        warning(
          'yaml-recovered',
          '`metadata` is a string holding JSON; it was read as an object. Write it without quotes.',
          { field: 'metadata' },
        ),
      );
    }
  }
  const m = f.map(meta, 'metadata');
  if (m) b.set('metadata', m);
  const sources = [m ?? {}, { openclaw: data['metadata.openclaw'] }];
  for (const source of sources) {
    for (const key of OPENCLAW_KEYS) {
      const claw = f.map(source[key], `metadata.${key}`);
      if (!claw) continue;
      readRequires(b, claw, `metadata.${key}.`);
      b.set('always', f.bool(claw.always, `metadata.${key}.always`));
      b.set('emoji', f.str(claw.emoji, `metadata.${key}.emoji`));
      b.set('homepage', f.str(claw.homepage, `metadata.${key}.homepage`));
      b.set('primaryEnv', f.str(claw.primaryEnv, `metadata.${key}.primaryEnv`));
    }
  }
  if (!m) return;
  const hermes = f.map(m.hermes, 'metadata.hermes');
  if (hermes) {
    b.add('tags', f.list(hermes.tags, 'metadata.hermes.tags'));
    b.set('category', f.str(hermes.category, 'metadata.hermes.category'));
  }
  if (typeof m.author === 'string') b.set('author', m.author.trim() || undefined);
  if (typeof m.version === 'string') b.set('version', m.version.trim() || undefined);
}
