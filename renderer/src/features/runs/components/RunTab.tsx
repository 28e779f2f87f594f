import { useShallow } from 'zustand/react/shallow';
import type { SkillDetail } from '../../../../../shared/contract';
import { InfoIcon } from '../../../ui/icons';
import { useRunsStore } from '../store';
import { RunDetail } from './RunDetail';
import { RunForm } from './RunForm';
import '../runs.css';
import '../timeline.css';

const POLICY_WORDS = {
  ask: 'asks you before each run',
  auto: 'runs without asking where the sandbox can hold it to its rules',
  deny: 'is set never to run',
} as const;

/** The skill detail's Run tab: the form, then the run it started, live (issue 7 item 8). */
export function RunTab({ detail }: { detail: SkillDetail }) {
  const { runId, startError } = useRunsStore(
    useShallow((s) => ({ runId: s.lastBySkill[detail.id] ?? null, startError: s.startErrors[detail.id] })),
  );
  const { execution } = detail.metadata;
  const needsModel = detail.type === 'instruction';

  return (
    <div className="run-tab" data-testid="run-tab">
      <div className="run-tab__policy">
        <InfoIcon size={14} />
        <span>
          {detail.type === 'direct'
            ? 'A template: it returns its text with your fields filled in; nothing is executed.'
            : needsModel
              ? 'Instruction skill: a model follows its steps (configure one in Settings); its scripts ask for approval.'
              : `Script skill: ${POLICY_WORDS[execution.approval ?? 'ask']}${execution.timeoutMs ? `, time limit ${Math.round(execution.timeoutMs / 1000)} s` : ''}; the approval request shows exactly what will run.`}
        </span>
      </div>
      <RunForm detail={detail} />
      {startError && (
        <p className="callout callout--error" role="alert" data-testid="run-start-error">
          {startError}
        </p>
      )}
      {runId && (
        <div className="run-tab__run">
          <div className="run-tab__run-head">
            <span>Latest run from here</span>
            <a href="#runs" className="link-button" data-testid="run-open-in-runs">
              All runs →
            </a>
          </div>
          <RunDetail key={runId} runId={runId} />
        </div>
      )}
    </div>
  );
}
