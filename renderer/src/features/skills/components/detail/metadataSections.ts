import type { SkillMetadata } from '../../../../../../shared/contract';

/** One row of the Metadata view; `key` is the normalized field, as `fieldSources` names it. */
export interface MetadataRow {
  key: string;
  label: string;
  value: unknown;
}

export interface MetadataSection {
  title: string;
  rows: MetadataRow[];
}

const row = (key: string, label: string, value: unknown): MetadataRow => ({ key, label, value });

/** SkillMetadata grouped the way people read a skill: who, when, what it needs, what it may do. */
export function metadataSections(m: SkillMetadata): MetadataSection[] {
  return [
    {
      title: 'Identity',
      rows: [
        row('name', 'Name', m.name),
        row('displayName', 'Display name', m.displayName),
        row('shortDescription', 'Short description', m.shortDescription),
        row('version', 'Version', m.version),
        row('author', 'Author', m.author),
        row('license', 'License', m.license),
        row('compatibility', 'Compatibility', m.compatibility),
        row('homepage', 'Homepage', m.homepage),
        row('category', 'Category', m.category),
        row('tags', 'Tags', m.tags),
        row('emoji', 'Emoji', m.emoji),
        row('icon', 'Icon', m.icon),
        row('iconLarge', 'Large icon', m.iconLarge),
        row('brandColor', 'Brand color', m.brandColor),
      ],
    },
    {
      title: 'Routing',
      rows: [
        row('type', 'Type', m.type),
        row('triggers', 'Triggers', m.triggers),
        row('hardTriggers', 'Hard triggers', m.hardTriggers),
        row('antiTriggers', 'Anti-triggers', m.antiTriggers),
        row('whenToUse', 'When to use', m.whenToUse),
        row('argumentHint', 'Argument hint', m.argumentHint),
        row('defaultPrompt', 'Default prompt', m.defaultPrompt),
        row('costHint', 'Cost hint', m.costHint),
        row('parallelSafe', 'Parallel safe', m.parallelSafe),
        row('always', 'Always', m.always),
        row('invocation.implicit', 'Router may pick it', m.invocation.implicit),
        row('invocation.user', 'User may invoke it', m.invocation.user),
      ],
    },
    {
      title: 'Requires',
      rows: [
        row('requires.bins', 'Binaries', m.requires.bins),
        row('requires.anyBins', 'Any of binaries', m.requires.anyBins),
        row('requires.env', 'Environment', m.requires.env),
        row('requires.config', 'Config', m.requires.config),
        row('requires.os', 'OS', m.requires.os),
        row('primaryEnv', 'Primary env', m.primaryEnv),
        row('install', 'Install', m.install),
      ],
    },
    {
      title: 'Permissions',
      rows: [
        row('allowedTools', 'Allowed tools', m.allowedTools),
        row('toolHints', 'Tool hints', m.toolHints),
        row('permissions.filesystem.read', 'Read', m.permissions.filesystem.read),
        row('permissions.filesystem.write', 'Write', m.permissions.filesystem.write),
        row('permissions.network.outbound', 'Network', m.permissions.network.outbound),
        row('permissions.environment.allow', 'Env allow-list', m.permissions.environment.allow),
        row('permissions.named', 'Named', m.permissions.named),
      ],
    },
    {
      title: 'Execution',
      rows: [
        row('execution.sandbox', 'Sandbox', m.execution.sandbox),
        row('execution.approval', 'Approval', m.execution.approval),
        row(
          'execution.timeoutMs',
          'Timeout',
          m.execution.timeoutMs === undefined ? undefined : `${m.execution.timeoutMs} ms`,
        ),
        row('execution.dangerous', 'Dangerous', m.execution.dangerous),
        row('execution.confirm', 'Confirm', m.execution.confirm),
        row('execution.confirmMessage', 'Confirm message', m.execution.confirmMessage),
        row('entrypoints', 'Entrypoints', m.entrypoints),
      ],
    },
    {
      title: 'Other fields',
      rows: [
        ...Object.entries(m.metadata).map(([key, value]) => row(`metadata.${key}`, `metadata.${key}`, value)),
        ...Object.entries(m.extra).map(([key, value]) => row(`extra.${key}`, key, value)),
      ],
    },
  ];
}

/** Empty means "not set": undefined, '', [] or {}. `false` is a value. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** The file a field came from; a nested key falls back to its parent's entry. */
export function fieldSource(sources: Record<string, string>, key: string): string | undefined {
  for (let k = key; k; k = k.includes('.') ? k.slice(0, k.lastIndexOf('.')) : '') {
    if (sources[k]) return sources[k];
  }
  return undefined;
}
