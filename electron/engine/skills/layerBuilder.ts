import type { Problem, SkillMetadata } from '../../../shared/contract';
import { Fields, unique, type YamlMap } from './fields';

type M = SkillMetadata;

/** Every value a file can set, keyed by the SkillMetadata field path it sets. */
export interface LayerValues {
  name?: string;
  description?: string;
  displayName?: string;
  shortDescription?: string;
  version?: string;
  author?: string;
  license?: string;
  compatibility?: string;
  homepage?: string;
  emoji?: string;
  icon?: string;
  iconLarge?: string;
  brandColor?: string;
  category?: string;
  tags?: string[];
  /** An explicit `type` / `spec.type`. */
  type?: M['type'];
  /** apex-bridge `mode`; `direct` makes an untyped skill `direct`. */
  mode?: 'sandbox' | 'direct';
  whenToUse?: string;
  argumentHint?: string;
  defaultPrompt?: string;
  triggers?: string[];
  hardTriggers?: string[];
  antiTriggers?: string[];
  costHint?: M['costHint'];
  parallelSafe?: boolean;
  always?: boolean;
  'invocation.implicit'?: boolean;
  'invocation.user'?: boolean;
  'requires.bins'?: string[];
  'requires.anyBins'?: string[];
  'requires.env'?: string[];
  'requires.config'?: string[];
  'requires.os'?: string[];
  install?: YamlMap[];
  primaryEnv?: string;
  toolHints?: string[];
  allowedTools?: string[];
  'permissions.filesystem.read'?: string[];
  'permissions.filesystem.write'?: string[];
  'permissions.network.outbound'?: boolean | string[];
  'permissions.environment.allow'?: string[];
  'permissions.named'?: string[];
  'execution.sandbox'?: M['execution']['sandbox'];
  'execution.approval'?: M['execution']['approval'];
  'execution.timeoutMs'?: number;
  'execution.dangerous'?: boolean;
  'execution.confirm'?: boolean;
  'execution.confirmMessage'?: string;
  entrypoints?: M['entrypoints'];
  metadata?: YamlMap;
}

/**
 * A LayerValues with every key present: objects of one shape keep the per-skill reads in
 * composeMetadata fast (3,483 skills at start-up).
 */
export function emptyValues(): LayerValues {
  return {
    name: undefined,
    description: undefined,
    displayName: undefined,
    shortDescription: undefined,
    version: undefined,
    author: undefined,
    license: undefined,
    compatibility: undefined,
    homepage: undefined,
    emoji: undefined,
    icon: undefined,
    iconLarge: undefined,
    brandColor: undefined,
    category: undefined,
    tags: undefined,
    type: undefined,
    mode: undefined,
    whenToUse: undefined,
    argumentHint: undefined,
    defaultPrompt: undefined,
    triggers: undefined,
    hardTriggers: undefined,
    antiTriggers: undefined,
    costHint: undefined,
    parallelSafe: undefined,
    always: undefined,
    'invocation.implicit': undefined,
    'invocation.user': undefined,
    'requires.bins': undefined,
    'requires.anyBins': undefined,
    'requires.env': undefined,
    'requires.config': undefined,
    'requires.os': undefined,
    install: undefined,
    primaryEnv: undefined,
    toolHints: undefined,
    allowedTools: undefined,
    'permissions.filesystem.read': undefined,
    'permissions.filesystem.write': undefined,
    'permissions.network.outbound': undefined,
    'permissions.environment.allow': undefined,
    'permissions.named': undefined,
    'execution.sandbox': undefined,
    'execution.approval': undefined,
    'execution.timeoutMs': undefined,
    'execution.dangerous': undefined,
    'execution.confirm': undefined,
    'execution.confirmMessage': undefined,
    entrypoints: undefined,
    metadata: undefined,
  };
}

/** Every key of LayerValues. */
export const VALUE_KEYS = Object.keys(emptyValues()) as (keyof LayerValues)[];

type KeysOf<T> = {
  [K in keyof LayerValues]-?: LayerValues[K] extends T | undefined ? K : never;
}[keyof LayerValues];
/** Fields holding one text. */
export type TextKey = KeysOf<string>;
type ListKey = KeysOf<string[]>;

/**
 * What one file says. Layers are applied in order SKILL.md → agents/openai.yaml →
 * skill.yaml, so a later file overrides an earlier one field by field.
 */
export interface Layer {
  file: string;
  values: LayerValues;
  /** Top-level keys no field reads, kept as written. */
  extra: YamlMap;
}

/** Collects one file's values; the readers in layer*.ts fill it. */
export class LayerBuilder {
  readonly values: LayerValues = emptyValues();
  readonly f: Fields;
  constructor(
    readonly file: string,
    problems: Problem[],
  ) {
    this.f = new Fields(file, problems);
  }
  /** First writer wins within one file (the top-level key is read before its fallbacks). */
  set<K extends keyof LayerValues>(key: K, value: LayerValues[K]): void {
    if (value !== undefined && this.values[key] === undefined) this.values[key] = value;
  }
  /** Lists from several keys of one file are merged. */
  add(key: ListKey, items: string[] | undefined): void {
    if (!items) return;
    const prev = this.values[key];
    this.values[key] = unique(prev ? [...prev, ...items] : items);
  }
}
