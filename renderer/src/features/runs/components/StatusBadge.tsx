import type { ReactNode } from 'react';
import { Badge } from '../../../ui/Badge';
import {
  BanIcon,
  CheckIcon,
  ClockIcon,
  ErrorIcon,
  PauseIcon,
  PlayIcon,
  ShieldIcon,
  StopIcon,
} from '../../../ui/icons';
import { LOOKS, type RunLook } from '../model';

/** One icon per look, so the status never rests on colour alone. */
const ICONS: Record<RunLook, ReactNode> = {
  success: <CheckIcon size={12} />,
  failure: <ErrorIcon size={12} />,
  denied: <BanIcon size={12} />,
  timeout: <ClockIcon size={12} />,
  blocked: <ShieldIcon size={12} />,
  cancelled: <StopIcon size={12} />,
  running: <PlayIcon size={12} />,
  awaiting_approval: <PauseIcon size={12} />,
};

export function StatusBadge({ look, testId = 'run-status' }: { look: RunLook; testId?: string }) {
  const { label, tone, help } = LOOKS[look];
  return (
    <span className="run-status" data-status={look} data-testid={testId}>
      <Badge tone={tone} icon={ICONS[look]} title={help}>
        {label}
      </Badge>
    </span>
  );
}
