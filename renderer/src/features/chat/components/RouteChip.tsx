import type { ChatTurn } from '../../../../../shared/contract';
import { RouteIcon } from '../../../ui/icons';
import { formatScore } from '../../routing/format';
import { useRoutingStore } from '../../routing/store';
import { routeChip } from '../turnView';

/**
 * The skill that answered and its score (or plain chat; or a skill the model ran from those the
 * router offered it); opens this turn's route in the score panel.
 */
export function RouteChip({ turn }: { turn: ChatTurn }) {
  const shown = useRoutingStore((s) => s.recorded?.route_id === turn.route.route_id);
  const showRecorded = useRoutingStore((s) => s.showRecorded);
  const chip = routeChip(turn);
  const plain = chip.score === null;
  return (
    <button
      type="button"
      className={`route-chip${plain ? ' is-plain' : ''}${shown ? ' is-shown' : ''}`}
      aria-pressed={shown}
      title={shown ? 'Back to the live preview' : 'Show why this message was routed here'}
      onClick={() => showRecorded(shown ? null : turn.route)}
      data-testid="route-chip"
      data-skill-name={plain ? '' : chip.label}
      data-route-id={turn.route.route_id}
    >
      <RouteIcon size={12} />
      <span className="route-chip__label">{chip.label}</span>
      {chip.score !== null && <span className="route-chip__score">{formatScore(chip.score)}</span>}
      {chip.source === 'forced' && <span className="route-chip__note">forced</span>}
      {chip.fallback && <span className="route-chip__note">fallback</span>}
      {chip.byModel && <span className="route-chip__note">chosen by the model</span>}
    </button>
  );
}
