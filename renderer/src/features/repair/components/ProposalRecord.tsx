import { REPAIR_BUDGET, type RepairProposal } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';

const SOURCE_LABELS: Record<RepairProposal['source'], string> = {
  fixer: 'deterministic fixer',
  model: 'model',
  user: 'edited by you',
};

/** The structured record every proposal carries (DESIGN §5), and the budget it spent (routing spec §13). */
export function ProposalRecord({ p }: { p: RepairProposal }) {
  const { files, hunks, added_tokens } = p.budget;
  return (
    <section className="review-card review-record" aria-label="The proposal" data-testid="repair-record">
      <h3 className="run-section__title">
        Proposal
        <Badge tone="accent" variant="outline">
          {p.fixer ? `${SOURCE_LABELS[p.source]}: ${p.fixer}` : SOURCE_LABELS[p.source]}
        </Badge>
        <span className="run-section__aside">attempt {p.attempt}</span>
      </h3>
      <dl className="review-record__grid">
        <dt>Error</dt>
        <dd>
          <code data-testid="record-error-signature">{p.error_signature}</code>
        </dd>
        <dt>Root cause</dt>
        <dd data-testid="record-root-cause">{p.root_cause}</dd>
        <dt>Expected effect</dt>
        <dd data-testid="record-expected-effect">{p.expected_effect}</dd>
        <dt>Patched files</dt>
        <dd className="review-record__files" data-testid="record-patched-files">
          {p.patched_files.map((f) => (
            <code key={f}>{f}</code>
          ))}
        </dd>
        <dt>Budget used</dt>
        <dd data-testid="record-budget">
          {files} of {REPAIR_BUDGET.files} files · {hunks} of {REPAIR_BUDGET.hunks} hunks · {added_tokens} of{' '}
          {REPAIR_BUDGET.addedTokens} words added to SKILL.md
        </dd>
      </dl>
    </section>
  );
}
