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
    'skills.installDependency': async ({ id, command }) => engine.install.installDependency(id, command),
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
    'route.commit': async ({ query, origin }) => engine.routing.commitWithModel(query, origin),
    'route.recordResult': async ({ route_id, result }) => engine.routing.recordResult(route_id, result),
    'activity.list': async ({ limit, before }) => engine.routing.activity(limit, before),
    'activity.get': async ({ route_id }) => engine.routing.activityGet(route_id),
    'metrics.get': async () => engine.routing.metrics(),
    'evals.run': async ({ id }) => engine.routing.runEvals(id),
    'evals.save': async ({ id, query, should_trigger }) => engine.routing.saveEval(id, query, should_trigger),
    'evals.remove': async ({ id, query }) => engine.routing.removeEval(id, query),
    'evals.improve': async ({ id, rounds }) => engine.routing.improveDescription(id, rounds),
    'evals.applyDescription': async ({ id, description, content_hash }) => {
      engine.routing.writeDescription(id, description, content_hash);
      await engine.reloadSkills();
      return engine.routing.runEvals(id);
    },
    'run.start': async ({ id, task, entrypoint, input }) => ({
      run_id: engine.execution.start({
        id,
        task,
        ...(entrypoint ? { entrypoint } : {}),
        ...(input ? { input } : {}),
      }).run_id,
    }),
    'run.retry': async ({ run_id, widen }) => ({ run_id: engine.execution.retry(run_id, widen).run_id }),
    'run.cancel': async ({ run_id }) => ({ cancelled: engine.execution.cancel(run_id) }),
    'runs.list': async ({ limit }) => ({ runs: engine.execution.list(limit) }),
    'runs.get': async ({ run_id }) => engine.execution.get(run_id),
    'approvals.pending': async () => ({ requests: engine.execution.broker.list() }),
    'approvals.answer': async ({ id, decision, reason }) =>
      engine.execution.broker.answer(id, decision, reason),
    'approvals.grants': async () => ({ grants: engine.execution.grants.list() }),
    'approvals.revoke': async ({ skill }) => ({ revoked: engine.execution.revoke(skill) }),
    'chat.list': async ({ query }) => ({ conversations: engine.chat.list(query) }),
    'chat.get': async ({ id }) => engine.chat.get(id),
    'chat.create': async ({ title }) => engine.chat.create(title),
    'chat.rename': async ({ id, title }) => engine.chat.rename(id, title),
    'chat.delete': async ({ id }) => ({ deleted: engine.chat.delete(id) }),
    'chat.send': async ({ conversation_id, message }) => {
      const { done: _done, ...ids } = engine.chat.send(conversation_id, message);
      return ids;
    },
    'chat.stop': async ({ turn_id }) => ({ stopped: engine.chat.stop(turn_id) }),
    'chat.resend': async ({ conversation_id, message }) => {
      const { done: _done, ...ids } = engine.chat.resend(conversation_id, message);
      return ids;
    },
    'repair.assess': async ({ run_id }) => engine.repair.assess(run_id),
    'repair.start': async ({ run_id }) => engine.repair.start(run_id),
    'repair.proposals': async (filter) => ({ proposals: await engine.repair.proposals(filter) }),
    'repair.revise': async ({ proposal_id, ...selection }) => engine.repair.revise(proposal_id, selection),
    'repair.apply': async ({ proposal_id, ...selection }) => engine.repair.apply(proposal_id, selection),
    'repair.reject': async ({ proposal_id, reason, rejected_hunks, edited }) =>
      engine.repair.reject(proposal_id, reason, rejected_hunks, edited),
    'repair.fixFrontmatter': ({ skill }) => engine.repair.fixFrontmatter(skill),
    'repair.history': async ({ skill }) => ({ revisions: engine.repair.history(skill) }),
    'repair.undo': async ({ revision }) => engine.repair.undo(revision),
    'models.get': async () => engine.models.status(),
    'models.update': async (patch) => engine.models.update(patch),
    'models.setKey': async ({ key }) => engine.models.setKey(key),
    'models.clearKey': async () => engine.models.clearKey(),
    'models.test': async () => engine.models.test(),
    'models.list': async () => engine.models.list(),
    'workspace.status': async () => engine.workspace.status(),
    'workspace.trust': async ({ path }) => engine.workspace.trust(path),
    'workspace.untrust': async ({ path }) => engine.workspace.untrust(path),
    'workspace.trusted': async () => ({ folders: engine.workspace.trustedFolders() }),
    'workspace.setSkillEnabled': async ({ name, enabled }) => engine.workspace.setSkillEnabled(name, enabled),
  };
}
