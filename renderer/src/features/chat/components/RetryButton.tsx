import { useState } from 'react';
import { useNow } from '../../../lib/useNow';
import { ClockIcon, RefreshIcon } from '../../../ui/icons';
import { formatCountdown } from '../../approvals/queue';

interface RetryButtonProps {
  /** When the model's server said it may be asked again (ms since the epoch); null: at once. */
  retryAt: number | null;
  onRetry(): void;
}

/**
 * Retry, held back with a countdown while the model's server asked to wait (a 429's Retry-After):
 * asked sooner, it refuses again. The clock stops once the wait is over.
 */
export function RetryButton({ retryAt, onRetry }: RetryButtonProps) {
  const [waiting, setWaiting] = useState(retryAt !== null);
  const now = useNow(1000, waiting);
  const left = retryAt === null ? 0 : retryAt - now;
  // State from the clock, set while rendering as React documents for it: no timer once it is over.
  if (waiting && left <= 0) setWaiting(false);
  const held = waiting && left > 0;
  return (
    <>
      <button
        type="button"
        className="button button--small"
        onClick={onRetry}
        disabled={held}
        title={
          held && retryAt
            ? `The server asked to wait until ${new Date(retryAt).toLocaleTimeString()}`
            : undefined
        }
        data-testid="turn-retry"
      >
        {held ? <ClockIcon size={13} /> : <RefreshIcon size={13} />}
        {held ? `Retry in ${formatCountdown(left)}` : 'Retry'}
      </button>
      {/* Said once when it opens; the countdown itself is not read out every second. */}
      <span className="visually-hidden" role="status">
        {retryAt !== null && !held ? 'The wait is over: Retry is open.' : ''}
      </span>
    </>
  );
}
