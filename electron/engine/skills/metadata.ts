import type { Problem, SkillMetadata } from '../../../shared/contract';
import type { YamlMap } from './fields';
import type { Layer } from './layer';
import { emptyValues, VALUE_KEYS } from './layerBuilder';
import { error, warning } from './problems';

export interface ComposeContext {
  /** The skill folder's name: the fallback name, and what `name` should match. */
  folderName: string;
  /** A `scripts/` folder with files makes an untyped skill a `script` skill. */
  scriptsHasFiles: boolean;
  problems: Problem[];
}

const SPEC_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

/** Length in code points, as Python's len() counts; cheap when it cannot matter. */
const codePoints = (s: string, limit: number) => (s.length <= limit ? s.length : [...s].length);
/** NFKC, as the reference validator compares names; ASCII is already normalized (and common). */
const nfkc = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : s.normalize('NFKC'));
const isSkillYaml = (file: string) => file === 'skill.yaml' || file === 'skill.yml';

/**
 * Folds the layers (SKILL.md, then agents/openai.yaml, then skill.yaml) into one
 * SkillMetadata: a later file overrides an earlier one field by field, and `fieldSources`
 * says which file each field came from. Adds the name and description problems.
 */
export function composeMetadata(layers: Layer[], ctx: ComposeContext): SkillMetadata {
  // Plain objects and direct reads: this runs for every skill at start-up.
  const single = layers.length === 1;
  const v = single ? layers[0].values : emptyValues();
  const fieldSources: Record<string, string> = {};
  const extra: YamlMap = single ? layers[0].extra : {};
  for (const layer of layers) {
    for (const key of VALUE_KEYS) {
      const value = layer.values[key];
      if (value === undefined) continue;
      // Either SKILL.md's `disable-model-invocation` or Codex's `allow_implicit_invocation: false`
      // keeps the model from picking the skill; only skill.yaml, SkillDeck's own file, can undo it.
      if (!single && key === 'invocation.implicit' && v[key] === false && !isSkillYaml(layer.file)) continue;
      fieldSources[key] = layer.file;
      if (!single) (v as Record<string, unknown>)[key] = value;
    }
    if (!single) Object.assign(extra, layer.extra);
  }

  const name = nameOf(v.name, ctx);
  const description = v.description ?? '';
  checkDescription(description, ctx.problems);

  const entrypoints = v.entrypoints ?? [];
  const inferred =
    v.mode === 'direct' ? 'direct' : entrypoints.length > 0 || ctx.scriptsHasFiles ? 'script' : 'instruction';
  const type = v.type ?? inferred;
  if (fieldSources.mode !== undefined) {
    // apex-bridge `mode: sandbox|direct` is a declared way of running: the executor runs it directly.
    if (!v.type) fieldSources.type = fieldSources.mode;
    delete fieldSources.mode;
  }

  const metadata: SkillMetadata = {
    name,
    description,
    displayName: v.displayName,
    shortDescription: v.shortDescription,
    version: v.version,
    author: v.author,
    license: v.license,
    compatibility: v.compatibility,
    homepage: v.homepage,
    emoji: v.emoji,
    icon: v.icon,
    iconLarge: v.iconLarge,
    brandColor: v.brandColor,
    category: v.category,
    tags: v.tags ?? [],
    type,
    whenToUse: v.whenToUse,
    argumentHint: v.argumentHint,
    defaultPrompt: v.defaultPrompt,
    triggers: v.triggers ?? [],
    antiTriggers: v.antiTriggers ?? [],
    // Routing spec §5 / seed 000: cost_hint defaults to medium.
    costHint: v.costHint ?? 'medium',
    parallelSafe: v.parallelSafe ?? false,
    always: v.always ?? false,
    invocation: { implicit: v['invocation.implicit'] ?? true, user: v['invocation.user'] ?? true },
    requires: {
      bins: v['requires.bins'] ?? [],
      anyBins: v['requires.anyBins'] ?? [],
      env: v['requires.env'] ?? [],
      config: v['requires.config'] ?? [],
      os: v['requires.os'] ?? [],
    },
    install: v.install ?? [],
    primaryEnv: v.primaryEnv,
    allowedTools: v.allowedTools ?? [],
    permissions: {
      filesystem: {
        read: v['permissions.filesystem.read'] ?? [],
        write: v['permissions.filesystem.write'] ?? [],
      },
      network: { outbound: v['permissions.network.outbound'] ?? false },
      environment: { allow: v['permissions.environment.allow'] ?? [] },
      named: v['permissions.named'] ?? [],
    },
    execution: {
      sandbox: v['execution.sandbox'],
      approval: v['execution.approval'],
      timeoutMs: v['execution.timeoutMs'],
      dangerous: v['execution.dangerous'] ?? false,
      confirm: v['execution.confirm'] ?? false,
      confirmMessage: v['execution.confirmMessage'],
    },
    entrypoints,
    metadata: v.metadata ?? {},
    extra,
    fieldSources,
  };
  if (v.hardTriggers) metadata.hardTriggers = v.hardTriggers;
  if (v.toolHints) metadata.toolHints = v.toolHints;
  return metadata;
}

/** Lenient name rules (agentskills.io client guide): every deviation is a warning. */
function nameOf(given: string | undefined, ctx: ComposeContext): string {
  const { folderName, problems } = ctx;
  if (!given) {
    problems.push(
      warning(
        'name-missing',
        `No \`name:\` in the frontmatter; the folder name "${folderName}" is used. Add \`name: ${folderName}\`.`,
        {
          field: 'name',
        },
      ),
    );
    return folderName;
  }
  const name = nfkc(given);
  if (name !== nfkc(folderName)) {
    problems.push(
      warning(
        'name-dir-mismatch',
        `The name "${name}" differs from its folder "${folderName}"; rename one so they match (the spec requires it).`,
        { field: 'name' },
      ),
    );
  }
  if (codePoints(name, MAX_NAME) > MAX_NAME) {
    problems.push(
      warning(
        'name-too-long',
        `The name is ${codePoints(name, MAX_NAME)} characters long; the spec allows at most ${MAX_NAME}. Shorten it.`,
        {
          field: 'name',
        },
      ),
    );
  }
  if (!SPEC_NAME.test(name)) {
    problems.push(
      warning(
        'name-invalid',
        `The name "${name}" should use only lowercase letters, digits and single hyphens (e.g. "pdf-tools"), not starting or ending with "-".`,
        { field: 'name' },
      ),
    );
  }
  return name;
}

function checkDescription(description: string, problems: Problem[]): void {
  if (!description) {
    problems.push(
      error(
        'description-missing',
        'No `description:`; add one saying what the skill does and when to use it. Without it the skill cannot be routed.',
        { field: 'description' },
      ),
    );
  } else if (codePoints(description, MAX_DESCRIPTION) > MAX_DESCRIPTION) {
    problems.push(
      warning(
        'description-too-long',
        `The description is ${codePoints(description, MAX_DESCRIPTION)} characters long; the spec allows at most ${MAX_DESCRIPTION}. Shorten it (move details to the body).`,
        { field: 'description' },
      ),
    );
  }
}
