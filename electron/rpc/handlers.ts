import type { z } from 'zod';
import type { Method, Requests, requests } from '../../shared/contract';
import type { Engine } from '../engine';

/** One handler per contract method; a missing one fails to compile. */
export type Handlers = {
  [M in Method]: (input: z.output<(typeof requests)[M]['input']>) => Promise<Requests[M]['output']>;
};

export function createHandlers(engine: Engine): Handlers {
  return {
    'app.info': async () => engine.info,
    'skills.list': async () => engine.skills.list(),
    'skills.reload': async () => engine.reloadSkills(),
    'skills.get': async ({ id }) => engine.skills.get(id),
    'skills.readFile': async ({ id, path }) => engine.skills.readFile(id, path),
    'skills.validate': async ({ id }) => engine.skills.validate(id),
    'settings.get': async () => engine.settings.get(),
    'settings.update': async (patch) => engine.updateSettings(patch),
  };
}
