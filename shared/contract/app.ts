import { z } from 'zod';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** `$SKILLDECK_HOME`, where settings, logs and managed skills live. */
  home: z.string(),
  /** The workspace folder whose `skills/` and `.claude/skills/` are searched. */
  workspace: z.string(),
  /**
   * Why `settings.json` was not used as written when the engine started (not JSON, or fields that
   * do not fit): what took defaults and where the file as it was is kept. Absent when it was fine.
   */
  settingsProblem: z.string().optional(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const appRequests = {
  /** Static facts about the running engine. */
  'app.info': { input: z.object({}).strict(), output: AppInfo },
} as const;

export const appEvents = {} as const;
