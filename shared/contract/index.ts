import type { z } from 'zod';
import { appEvents, appRequests } from './app';
import { chatEvents, chatRequests } from './chat';
import { evalsEvents, evalsRequests } from './evals';
import { executionEvents, executionRequests } from './execution';
import { installEvents, installRequests } from './install';
import { repairEvents, repairRequests } from './repair';
import { modelsEvents, modelsRequests } from './models';
import { routingEvents, routingRequests } from './routing';
import { settingsEvents, settingsRequests } from './settings';
import { skillsEvents, skillsRequests } from './skills';
import { workspaceEvents, workspaceRequests } from './workspace';

export * from './common';
export * from './app';
export * from './skills';
export * from './settings';
export * from './install';
export * from './routing';
export * from './evals';
export * from './execution';
export * from './chat';
export * from './repair';
export * from './models';
export * from './workspace';

/** Every request method: `feature.verb` → input and output schemas. */
export const requests = {
  ...appRequests,
  ...skillsRequests,
  ...settingsRequests,
  ...routingRequests,
  ...evalsRequests,
  ...installRequests,
  ...executionRequests,
  ...chatRequests,
  ...repairRequests,
  ...modelsRequests,
  ...workspaceRequests,
} as const;
/** Every pushed event: past-tense fact → payload schema. */
export const events = {
  ...appEvents,
  ...skillsEvents,
  ...settingsEvents,
  ...routingEvents,
  ...evalsEvents,
  ...installEvents,
  ...executionEvents,
  ...chatEvents,
  ...repairEvents,
  ...modelsEvents,
  ...workspaceEvents,
} as const;

export type Method = keyof typeof requests;
export type EventName = keyof typeof events;

export type Requests = {
  [M in Method]: {
    input: z.input<(typeof requests)[M]['input']>;
    output: z.infer<(typeof requests)[M]['output']>;
  };
};
export type Events = { [E in EventName]: z.infer<(typeof events)[E]> };

export const methodNames = Object.keys(requests) as Method[];
export const eventNames = Object.keys(events) as EventName[];

export const isMethod = (name: unknown): name is Method =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
