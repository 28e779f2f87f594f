import type { ChatStep } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { Spinner } from '../../../ui/Spinner';
import { ChevronIcon, FileIcon, PlayIcon, SkillsIcon, TerminalIcon } from '../../../ui/icons';
import { RepairOffer } from '../../repair/components/RepairOffer';
import { OFFER_STATUSES } from '../../repair/model';
import { formatDuration } from '../../runs/model';
import { useRunsStore } from '../../runs/store';
import { argumentsSummary, STEP_TONE } from '../turnView';
import { SandboxBadge } from './SandboxBadge';

const ICONS: Record<string, typeof FileIcon> = {
  list_skill_files: FileIcon,
  read_skill_file: FileIcon,
  run_skill_script: TerminalIcon,
  run_skill: SkillsIcon,
};

/** A tool call or a skill run: what ran with which arguments, how it ended, where, and its output (collapsed). */
export function ToolCard({ step }: { step: ChatStep }) {
  const Icon = step.kind === 'run' ? PlayIcon : (ICONS[step.name] ?? TerminalIcon);
  const args = step.kind === 'tool' ? argumentsSummary(step.input) : '';
  const lines = step.output ? step.output.trimEnd().split('\n').length : 0;
  return (
    <div
      className={`step-card is-${step.status}`}
      data-testid="tool-card"
      data-kind={step.kind}
      data-name={step.name}
      data-status={step.status}
    >
      <header className="step-card__header">
        <Icon size={14} className="step-card__icon" />
        <span className="step-card__what">
          {step.kind === 'run' && <span className="step-card__kind">Skill run</span>}
          <strong className="step-card__name">{step.name}</strong>
          {args && <code className="step-card__args">{args}</code>}
        </span>
        {step.status === 'running' && <Spinner label={`${step.name} is running`} />}
        <Badge tone={STEP_TONE[step.status]} testId="tool-status">
          {step.status}
        </Badge>
        {step.duration_ms !== undefined && (
          <span className="step-card__duration" title="How long it took" data-testid="tool-duration">
            {formatDuration(step.duration_ms)}
          </span>
        )}
        {step.sandbox && <SandboxBadge sandbox={step.sandbox} />}
      </header>
      {step.error && (
        <p className="step-card__error" data-testid="tool-error">
          {step.error}
        </p>
      )}
      {step.kind === 'tool' && args && (
        <details className="step-card__details">
          <summary>Arguments</summary>
          <pre>{JSON.stringify(step.input, null, 2)}</pre>
        </details>
      )}
      {step.output && (
        <details className="step-card__details" data-testid="tool-output">
          <summary>
            Output <span className="muted">({lines === 1 ? '1 line' : `${lines} lines`})</span>
          </summary>
          <pre>{step.output}</pre>
        </details>
      )}
      {step.run_id && OFFER_STATUSES.has(step.status) && <RepairOffer runId={step.run_id} compact />}
      {/* A skill the model followed to an answer although a file it names is missing or its script failed. */}
      {step.run_id && step.kind === 'run' && step.status === 'success' && (
        <RepairOffer runId={step.run_id} compact whenEligible />
      )}
      {step.run_id && (
        <div className="step-card__run">
          {/* The Runs view shows the selected run with its timeline, output and files. */}
          <a
            href="#runs"
            onClick={() => useRunsStore.getState().select(step.run_id ?? null)}
            data-testid="tool-run-link"
          >
            Open run <code>{step.run_id}</code> in Runs <ChevronIcon size={11} />
          </a>
        </div>
      )}
    </div>
  );
}
