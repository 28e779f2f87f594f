import { z } from 'zod';
import { MODEL_SETTINGS_DEFAULTS, ModelSettings } from './models';

/** Per-skill switches, keyed by skill name (DESIGN §2; issue: enable / disable / never auto-select). */
export const SkillSettings = z.object({
  /** Skills that never load into routing or run. */
  disabled: z.array(z.string()).default([]),
  /** Skills only `$name` / `/name` may invoke; the router never picks them on its own. */
  neverAutoSelect: z.array(z.string()).default([]),
  /** Skills whose flagged instructions (SkillSummary.flagged) the user read and let the router pick anyway. */
  allowFlagged: z.array(z.string()).default([]),
  /** Extra discovery folders (source `extra`), besides `--skills DIR`. */
  extraDirs: z.array(z.string()).default([]),
});

/** Router knobs (DESIGN §3): all weights, T, k and limits are settings. */
export const RoutingSettings = z.object({
  weights: z
    .object({
      intent_match: z.number().min(0).max(1).default(0.4),
      trigger_match: z.number().min(0).max(1).default(0.2),
      success_rate: z.number().min(0).max(1).default(0.15),
      context_readiness: z.number().min(0).max(1).default(0.1),
      cost: z.number().min(0).max(1).default(0.1),
      conflict: z.number().min(0).max(1).default(0.05),
    })
    .default({
      intent_match: 0.4,
      trigger_match: 0.2,
      success_rate: 0.15,
      context_readiness: 0.1,
      cost: 0.1,
      conflict: 0.05,
    }),
  /** Threshold T: candidates below it are not selected unless forced. */
  threshold: z.number().min(0).max(1).default(0.65),
  /** k: how many semantic candidates recall keeps. */
  topK: z.number().int().min(1).max(50).default(3),
  /** routing spec §18 `max_parallel_skills`: how many parallel_safe skills one group may hold. */
  maxParallel: z.number().int().min(1).max(4).default(2),
});

export const Settings = z.object({
  skills: SkillSettings.default({ disabled: [], neverAutoSelect: [], allowFlagged: [], extraDirs: [] }),
  routing: RoutingSettings.default(RoutingSettings.parse({})),
  /** Provider, base URL and model ids (DESIGN §4); changed through `models.update`, never holds a key. */
  model: ModelSettings.default(MODEL_SETTINGS_DEFAULTS),
});
export type Settings = z.infer<typeof Settings>;

/** A partial update: objects merge, arrays and scalars replace. */
export const SettingsPatch = z
  .object({
    skills: SkillSettings.partial().strict().optional(),
    routing: RoutingSettings.partial()
      .extend({ weights: RoutingSettings.shape.weights.unwrap().partial().strict().optional() })
      .strict()
      .optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const settingsRequests = {
  /** The current settings, defaults filled in. */
  'settings.get': { input: z.object({}).strict(), output: Settings },
  /** Merge a partial update, persist it atomically, return the result. */
  'settings.update': { input: SettingsPatch, output: Settings },
} as const;

export const settingsEvents = {
  /** Settings changed (from any window or the CLI). */
  'settings.changed': Settings,
} as const;
