import { useMemo, useState } from 'react';
import type { RouteEvent } from '../../../../../shared/contract';
import { SkillPicker } from '../../routing/components/SkillPicker';
import { useSkillsStore } from '../../skills/store';
import { SaveAsEval } from './SaveAsEval';

const KEEP = { testId: 'keep-eval', label: 'Skill to keep this message as an eval of' };

/**
 * A recorded route kept as a trigger eval of any skill (what-users-ask §1, §15): the message
 * that went to the wrong skill, or to none, becomes a case the router is held to from now on.
 * The routed skill is picked to start with; mount it keyed by the route.
 */
export function KeepAsEval({ route }: { route: RouteEvent }) {
  const [id, setId] = useState<string | null>(route.plan.primary_id);
  const name = useSkillsStore((s) => (id ? s.byId[id]?.name : undefined));
  const marked = useMemo(() => new Set(route.candidates.map((c) => c.id)), [route.candidates]);
  return (
    <section className="keep-as-eval" data-testid="keep-as-eval" aria-label="Keep as a trigger eval">
      <h3 className="keep-as-eval__title">Keep as a trigger eval</h3>
      <SkillPicker value={id} onChange={setId} placeholder="Choose a skill…" marked={marked} purpose={KEEP} />
      {id && name && <SaveAsEval id={id} name={name} query={route.query} />}
    </section>
  );
}
