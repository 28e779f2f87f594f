import type { ActivationPlan } from '../../../../../shared/contract';
import { Badge, type Tone } from '../../../ui/Badge';
import { ChevronIcon } from '../../../ui/icons';
import { fallbackLabel, type ModelChoice } from '../format';

const COST_TONE: Record<ActivationPlan['estimated_cost'], Tone> = {
  none: 'neutral',
  low: 'green',
  medium: 'amber',
  high: 'red',
};

interface PlanCardProps {
  plan: ActivationPlan;
  /** A sent message's route where the router chose none and the model ran this offered skill. */
  chosenByModel?: ModelChoice | null;
}

/** The ActivationPlan (DESIGN §3): what would run, in which order, and what comes after a failure. */
export function PlanCard({ plan, chosenByModel }: PlanCardProps) {
  return (
    <section className="plan-card" data-testid="plan" aria-label="Activation plan">
      <div className="plan-card__primary">
        <span
          className="plan-card__label"
          title={chosenByModel ? 'The router chose no skill; the model ran this one' : undefined}
        >
          {chosenByModel ? 'Model’s pick' : 'Primary'}
        </span>
        {plan.primary ? (
          <strong className="plan-card__skill" data-testid="plan-primary" data-skill-name={plan.primary}>
            {plan.primary}
          </strong>
        ) : chosenByModel ? (
          <strong
            className="plan-card__skill is-model"
            data-testid="plan-primary"
            data-skill-name=""
            data-model-choice={chosenByModel.name}
          >
            {chosenByModel.name}
          </strong>
        ) : (
          <strong className="plan-card__skill is-none" data-testid="plan-primary" data-skill-name="">
            none — plain chat
          </strong>
        )}
        <Badge tone={COST_TONE[plan.estimated_cost]} variant="outline" title="Estimated cost">
          cost {plan.estimated_cost}
        </Badge>
      </div>
      <p className="plan-card__reason" data-testid="plan-reason">
        {plan.routing_reason}
        {chosenByModel && (
          <>
            {' '}
            {chosenByModel.score === null
              ? `The model chose ${chosenByModel.name} from the installed skills plain chat listed; the router had not recalled it.`
              : `Plain chat offered the model the skills that came closest, and it ran ${chosenByModel.name} (score ${chosenByModel.score.toFixed(2)}, under T).`}
          </>
        )}
      </p>
      <dl className="plan-card__facts">
        {plan.parallel_groups.length > 0 && (
          <>
            <dt>Order</dt>
            <dd data-testid="plan-groups">
              {plan.parallel_groups.map((group, i) => (
                <span key={i} className="plan-card__group">
                  {i > 0 && <ChevronIcon size={11} className="plan-card__arrow" />}
                  <span className="plan-card__chip">{group.join(' ∥ ')}</span>
                </span>
              ))}
            </dd>
          </>
        )}
        <dt>Fallback</dt>
        <dd data-testid="plan-fallback">
          {plan.fallback_chain.map((step, i) => (
            <span key={i} className="plan-card__group">
              {i > 0 && <ChevronIcon size={11} className="plan-card__arrow" />}
              <span className={`plan-card__chip${step.type === 'skill' ? '' : ' is-generic'}`}>
                {fallbackLabel(step)}
              </span>
            </span>
          ))}
        </dd>
      </dl>
    </section>
  );
}
