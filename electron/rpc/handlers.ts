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
    'skills.list': async () => engine.listSkills(),
    'skills.reload': async () => engine.reloadSkills(),
    'skills.get': async ({ id }) => engine.skills.get(id),
    'skills.readFile': async ({ id, path }) => engine.skills.readFile(id, path),
    'skills.validate': async ({ id }) => engine.skills.validate(id),
    'settings.get': async () => engine.settings.get(),
    'settings.update': async (patch) => engine.updateSettings(patch),
    'install.preview': async ({ source, previewId }) => engine.install.preview(source, previewId),
    'install.commit': async ({ previewId, select }) => engine.install.commit(previewId, select),
    'install.cancel': async ({ previewId }) => ({ cancelled: await engine.install.cancel(previewId) }),
    'skills.remove': async ({ id }) => engine.install.remove(id),
    'skills.restore': async ({ trashId }) => engine.install.restore(trashId),
    'trash.list': async () => ({ items: engine.install.trashList() }),
    'trash.empty': async ({ trashId }) => ({ removed: engine.install.emptyTrash(trashId) }),
    'skills.setEnabled': async ({ name, enabled }) => engine.install.setSwitches(name, { enabled }),
    'skills.setAutoSelect': async ({ name, autoSelect }) => engine.install.setSwitches(name, { autoSelect }),
    'skills.diagnose': async ({ id }) => engine.install.diagnose(id),
    'route.preview': async ({ query }) => engine.routing.preview(query),
    'route.whyNot': async ({ query, id }) => engine.routing.whyNot(query, id),
    'route.commit': async ({ query, origin }) => engine.routing.commit(query, origin),
    'route.recordResult': async ({ route_id, result }) => engine.routing.recordResult(route_id, result),
    'activity.list': async ({ limit, before }) => engine.routing.activity(limit, before),
    'activity.get': async ({ route_id }) => engine.routing.activityGet(route_id),
    'metrics.get': async () => engine.routing.metrics(),
    'evals.run': async ({ id }) => engine.routing.runEvals(id),
  };
}
