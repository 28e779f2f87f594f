import path from 'node:path';
import type { ApprovalRequest } from '../../../shared/contract';
import type { Engine } from '../index';
import type { ApprovalAsk } from './approvals';
import { writeTree } from '../../testing/fixtures';

/** A script skill in `dir/<name>` with a bash script and the given skill.yaml policy lines. */
export function scriptSkill(dir: string, name: string, script: string, yaml: string[] = []): string {
  const root = path.join(dir, name);
  writeTree(root, {
    'SKILL.md': `---\nname: ${name}\ndescription: Test skill ${name} that runs a script.\n---\n# ${name}\n`,
    'skill.yaml': ['spec: { type: script }', ...yaml].join('\n'),
    'scripts/run.sh': `#!/bin/bash\n${script}\n`,
  });
  return root;
}

/** Answer every approval request of `engine` with `decide`; returns the requests seen and an unsubscribe. */
export function answerWith(
  engine: Engine,
  decide: (r: ApprovalRequest) => 'allow_once' | 'allow_always' | 'deny' | null,
): { requests: ApprovalRequest[]; stop: () => void } {
  const requests: ApprovalRequest[] = [];
  const stop = engine.events.subscribe((name, payload) => {
    if (name !== 'approval.requested') return;
    const request = payload as ApprovalRequest;
    requests.push(request);
    const decision = decide(request);
    if (decision) queueMicrotask(() => engine.execution.broker.answer(request.id, decision, 'test'));
  });
  return { requests, stop };
}

/** One approval request as the broker is asked it, for the broker's own tests. */
export const SAVE_NOTE_ASK: ApprovalAsk = {
  run_id: 'r1',
  skill: 'save-note',
  skill_id: '/skills/save-note',
  version: '1.0.0',
  content_hash: 'abc',
  command: ['/usr/bin/python3', 'save_note.py'],
  command_line: '/usr/bin/python3 save_note.py',
  cwd: '/runs/r1/work',
  reads: [],
  writes: ['./out/**'],
  network: false,
  env: ['HOME', 'PATH'],
  sandbox: 'bwrap',
  unenforced: [],
  summary: ['writes ./out/**'],
  reasons: ['save-note asks for approval before it runs a command'],
};
