import type { Problem } from '../../../shared/contract';
import { Fields, isMap, splitTools, type YamlMap } from './fields';
import { LayerBuilder, type Layer, type TextKey } from './layerBuilder';
import { readExecution } from './layerExecution';
import { readMetadata, readRequires } from './layerGating';

export type { Layer } from './layerBuilder';

/** Groups of keys read together; a group's reader runs only when one of its keys is there. */
const G = {
  Triggers: 1,
  Invocation: 2,
  Requires: 4,
  Metadata: 8,
  Execution: 16,
  Interface: 32,
  Type: 64,
  Other: 128,
};

/** Text fields read as they are: key → field (aliases: the first in the file wins). */
const SIMPLE: Record<string, TextKey> = {
  name: 'name',
  description: 'description',
  license: 'license',
  compatibility: 'compatibility',
  homepage: 'homepage',
  emoji: 'emoji',
  category: 'category',
  version: 'version',
  icon: 'icon',
  when_to_use: 'whenToUse',
  primaryEnv: 'primaryEnv',
  display_name: 'displayName',
  displayName: 'displayName',
  'display-name': 'displayName',
  short_description: 'shortDescription',
  brand_color: 'brandColor',
  default_prompt: 'defaultPrompt',
};

/** Every other top-level key some field reads, with its group; anything else goes to `extra`. */
const GROUPS: Record<string, number> = {
  triggers: G.Triggers,
  anti_triggers: G.Triggers,
  'anti-triggers': G.Triggers,
  invocation: G.Invocation,
  'disable-model-invocation': G.Invocation,
  'user-invocable': G.Invocation,
  requires: G.Requires,
  prerequisites: G.Requires,
  os: G.Requires,
  platforms: G.Requires,
  required_environment_variables: G.Requires,
  install: G.Requires,
  metadata: G.Metadata,
  'metadata.openclaw': G.Metadata,
  permissions: G.Execution,
  execution_policy: G.Execution,
  approval: G.Execution,
  timeout: G.Execution,
  dangerous: G.Execution,
  confirm: G.Execution,
  entrypoints: G.Execution,
  interface: G.Interface,
  policy: G.Interface,
  spec: G.Type,
  type: G.Type,
  mode: G.Type,
  'argument-hint': G.Other,
  author: G.Other,
  always: G.Other,
  parallel_safe: G.Other,
  cost_hint: G.Other,
  'cost-hint': G.Other,
  tags: G.Other,
  toolHints: G.Other,
  'allowed-tools': G.Other,
  allowed_tools: G.Other,
};

const REQUIRES_KEYS = new Set(['bins', 'anyBins', 'env', 'config', 'os']);
const TYPES = ['instruction', 'script', 'direct'] as const;

/** Reads SKILL.md frontmatter or skill.yaml (same keys; skill.yaml adds `spec.type`). */
export function readSkillLayer(data: YamlMap, file: string, problems: Problem[]): Layer {
  const b = new LayerBuilder(file, problems);
  const { f } = b;
  const extra: YamlMap = {};
  // One pass over the keys: most skills have three or four, and this runs for every skill.
  let groups = 0;
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (Object.hasOwn(SIMPLE, key)) {
      if (value !== undefined) b.set(SIMPLE[key], f.str(value, key));
    } else if (Object.hasOwn(GROUPS, key)) groups |= GROUPS[key];
    else extra[key] = value;
  }
  // Composio writes `requires: { mcp: [rube] }`: keep sub-keys no field reads visible.
  if (isMap(data.requires) && Object.keys(data.requires).some((k) => !REQUIRES_KEYS.has(k))) {
    extra.requires = data.requires;
  }
  if (groups & G.Other) readOther(b, data);
  if (groups & G.Triggers) readTriggers(b, data);
  if (groups & G.Invocation) readInvocation(b, data);
  if (groups & G.Requires) readRequires(b, data);
  if (groups & G.Metadata) readMetadata(b, data, problems);
  if (groups & G.Execution) readExecution(b, data);
  if (groups & G.Interface) readInterface(b, data.interface, data.policy);
  if (groups & G.Type) {
    const spec = f.map(data.spec, 'spec');
    b.set('type', f.oneOf(spec?.type, 'spec.type', TYPES));
    b.set('type', f.oneOf(data.type, 'type', TYPES));
    b.set('mode', f.oneOf(data.mode, 'mode', ['sandbox', 'direct'] as const));
  }
  return { file, values: b.values, extra };
}

function readOther(b: LayerBuilder, data: YamlMap): void {
  const { f } = b;
  if (data['argument-hint'] !== undefined) b.set('argumentHint', argumentHint(f, data['argument-hint']));
  if (data.author !== undefined) b.set('author', author(f, data.author));
  if (data.always !== undefined) b.set('always', f.bool(data.always, 'always'));
  if (data.parallel_safe !== undefined) b.set('parallelSafe', f.bool(data.parallel_safe, 'parallel_safe'));
  const cost = data.cost_hint ?? data['cost-hint'];
  if (cost !== undefined) b.set('costHint', f.oneOf(cost, 'cost_hint', ['low', 'medium', 'high'] as const));
  b.add('tags', f.list(data.tags, 'tags'));
  b.add('toolHints', f.list(data.toolHints, 'toolHints'));
  const tools = data['allowed-tools'] ?? data.allowed_tools;
  if (tools !== undefined) {
    b.set('allowedTools', typeof tools === 'string' ? splitTools(tools) : f.list(tools, 'allowed-tools'));
  }
}

/** Reads Codex's agents/openai.yaml: `interface.*` and `policy.allow_implicit_invocation`. */
export function readOpenAiLayer(data: YamlMap, file: string, problems: Problem[]): Layer {
  const b = new LayerBuilder(file, problems);
  readInterface(b, data.interface, data.policy);
  return { file, values: b.values, extra: {} };
}

function readInterface(b: LayerBuilder, iface: unknown, policy: unknown): void {
  const { f } = b;
  const i = f.map(iface, 'interface');
  if (i) {
    b.set('displayName', f.str(i.display_name, 'interface.display_name'));
    b.set('shortDescription', f.str(i.short_description, 'interface.short_description'));
    b.set('icon', f.str(i.icon_small, 'interface.icon_small'));
    b.set('iconLarge', f.str(i.icon_large, 'interface.icon_large'));
    b.set('brandColor', f.str(i.brand_color, 'interface.brand_color'));
    b.set('defaultPrompt', f.str(i.default_prompt, 'interface.default_prompt'));
  }
  const p = f.map(policy, 'policy');
  if (p)
    b.set('invocation.implicit', f.bool(p.allow_implicit_invocation, 'policy.allow_implicit_invocation'));
}

function argumentHint(f: Fields, v: unknown): string | undefined {
  // `argument-hint: [issue-number]` is a YAML list; give back the text the author meant.
  if (Array.isArray(v)) return `[${(f.list(v, 'argument-hint') ?? []).join(', ')}]`;
  return f.str(v, 'argument-hint');
}

function author(f: Fields, v: unknown): string | undefined {
  if (isMap(v)) return f.str(v.name, 'author.name');
  if (Array.isArray(v)) return f.list(v, 'author')?.join(', ') || undefined;
  return f.str(v, 'author');
}

function readTriggers(b: LayerBuilder, data: YamlMap): void {
  const { f } = b;
  const t = data.triggers;
  if (isMap(t)) {
    const keywords = f.list(t.keywords, 'triggers.keywords') ?? [];
    const hard = f.list(t.hard, 'triggers.hard') ?? [];
    b.add('triggers', [...keywords, ...hard]);
    b.add('hardTriggers', hard);
  } else b.add('triggers', f.list(t, 'triggers'));
  b.add('antiTriggers', f.list(data.anti_triggers ?? data['anti-triggers'], 'anti_triggers'));
}

function readInvocation(b: LayerBuilder, data: YamlMap): void {
  const { f } = b;
  const inv = f.map(data.invocation, 'invocation');
  b.set('invocation.implicit', f.bool(inv?.implicit, 'invocation.implicit'));
  b.set('invocation.user', f.bool(inv?.user, 'invocation.user'));
  const disabled = f.bool(data['disable-model-invocation'], 'disable-model-invocation');
  b.set('invocation.implicit', disabled === undefined ? undefined : !disabled);
  b.set('invocation.user', f.bool(data['user-invocable'], 'user-invocable'));
}
