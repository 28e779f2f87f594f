import { useEffect } from 'react';
import type { ChatTurn } from '../../../../../shared/contract';
import { InstallHints } from '../../../ui/InstallHints';
import { InstallDependency } from '../../skills/components/InstallDependency';
import { useModelsStore } from '../../models/store';
import { InlineCode } from '../../../ui/InlineCode';
import { ErrorIcon, InfoIcon, SlidersIcon, WarningIcon } from '../../../ui/icons';
import { needsModel, noticeError, retryAt, turnNotice } from '../turnView';
import { RetryButton } from './RetryButton';

interface TurnNoticeViewProps {
  turn: ChatTurn;
  /** Retry is offered on the last turn only: `chat.resend` replaces the last turn. */
  canRetry: boolean;
  onRetry(): void;
}

/** The model a chat would talk to now, as model steps name it (`provider/` when the server picks). */
const modelId = (target: { provider: string; model: string | null } | null | undefined) =>
  target ? `${target.provider}/${target.model ?? ''}` : null;

/** Where the model settings live (the Model section arrives with the providers). */
const MODEL_SETTINGS = '#settings/model';

/** What went wrong with a turn and what to do next: open the model settings, retry, edit. */
export function TurnNoticeView({ turn, canRetry, onRetry }: TurnNoticeViewProps) {
  const current = useModelsStore((s) => modelId(s.model?.effective));
  const startModels = useModelsStore((s) => s.start);
  useEffect(() => startModels(), [startModels]);
  const notice = turnNotice(turn);
  if (!notice) return null;
  const Icon = notice.tone === 'red' ? ErrorIcon : notice.tone === 'amber' ? WarningIcon : InfoIcon;
  const model = needsModel(turn);
  // A skill that fits but cannot run here: what it lacks and how to install it, not the engine's prose.
  const { unready } = notice;
  const error = noticeError(turn, notice);
  return (
    <div
      className={`turn-notice tone-${notice.tone}`}
      data-testid={model ? 'no-model' : 'turn-notice'}
      data-status={turn.status}
    >
      <Icon size={15} />
      <div className="turn-notice__body">
        {/* The live region holds the message only: a Retry countdown in it would be read out each second. */}
        <div className="turn-notice__message" role={notice.tone === 'neutral' ? 'status' : 'alert'}>
          <strong>{notice.title}</strong>
          {error && (
            <p className="turn-notice__error">
              <InlineCode text={error} />
            </p>
          )}
          {unready && (
            <div className="turn-notice__needs" data-testid="unready-skill">
              It needs{' '}
              {(unready.missing ?? []).map((item, i) => (
                <span key={item}>
                  {i > 0 && ', '}
                  <code>{item.replace(/^(bin|env):/, '').replaceAll('|', ' or ')}</code>
                  {item.startsWith('env:') ? ' (not set)' : ' (not on PATH)'}
                </span>
              ))}
              .
              <InstallHints
                name={unready.name}
                install={unready.install}
                action={(hint) => <InstallDependency id={unready.id} name={unready.name} hint={hint} />}
              />
            </div>
          )}
          {/* The engine's no-model message already says where to go; the hint would repeat it. */}
          {!(model && error) && <p className="turn-notice__hint">{notice.hint}</p>}
        </div>
        <div className="turn-notice__actions">
          {notice.modelSettings && (
            <a
              className="button button--small button--primary"
              href={MODEL_SETTINGS}
              data-testid="open-model-settings"
            >
              <SlidersIcon size={13} />
              Open model settings
            </a>
          )}
          {notice.retry && canRetry && (
            <RetryButton
              key={retryAt(turn, current) ?? 'now'}
              retryAt={retryAt(turn, current)}
              onRetry={onRetry}
            />
          )}
        </div>
      </div>
    </div>
  );
}
