import { useNow } from '../../../lib/useNow';
import { ClockIcon } from '../../../ui/icons';
import { formatCountdown, msLeft, urgency } from '../queue';

/** Time left before no answer counts as a deny (DESIGN §4); amber, then red, near the end. */
export function Countdown({ expiresAt, testId }: { expiresAt: string; testId?: string }) {
  const left = msLeft({ expires_at: expiresAt }, useNow(1000));
  const level = urgency(left);
  const text = level === 'expired' ? 'time is up: counts as a deny' : `${formatCountdown(left)} left`;
  return (
    <span
      className={`countdown countdown--${level}`}
      role="timer"
      title={`No answer by ${new Date(expiresAt).toLocaleTimeString()} counts as a deny`}
      data-testid={testId}
      data-urgency={level}
    >
      <ClockIcon size={13} />
      {text}
    </span>
  );
}
