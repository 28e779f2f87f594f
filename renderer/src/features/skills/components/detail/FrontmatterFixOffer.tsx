import { useState } from 'react';
import { FRONTMATTER_FIX_CODES, type SkillDetail } from '../../../../../../shared/contract';
import { client, errorMessage } from '../../../../lib/client';
import { Spinner } from '../../../../ui/Spinner';
import { ErrorIcon, PencilIcon } from '../../../../ui/icons';
import { reviewHash } from '../../../repair/model';
import { useRepairStore } from '../../../repair/store';

/**
 * Fix… for a SKILL.md the loader could not read because of where its frontmatter is (never
 * closed, below other content, without its opening `---`, or missing): the edit opens in the
 * repair review as a diff, and nothing is written until the user applies it there.
 */
export function FrontmatterFixOffer({ detail }: { detail: SkillDetail }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const problem = detail.problems.find(
    (p) => p.severity === 'error' && FRONTMATTER_FIX_CODES.includes(p.code),
  );
  if (!problem) return null;

  const fix = async () => {
    setState({ busy: true, error: null });
    try {
      const proposal = await client().invoke('repair.fixFrontmatter', { skill: detail.id });
      const repair = useRepairStore.getState();
      repair.start();
      repair.putProposal(proposal);
      location.hash = reviewHash('', proposal.repair_id);
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  };

  return (
    <div className="callout callout--info frontmatter-fix" data-testid="frontmatter-fix">
      <PencilIcon size={15} />
      <div>
        <p>
          SkillDeck can make this SKILL.md load with a mechanical edit. You review the change as a diff, and
          can edit it, before anything is written; applying it keeps the original, so it can be undone.
        </p>
        <button
          type="button"
          className="button button--small"
          onClick={() => void fix()}
          disabled={state.busy}
          data-testid="frontmatter-fix-button"
        >
          {state.busy && <Spinner label="Preparing the fix" />}
          Fix…
        </button>
        {state.error && (
          <p className="tone-red" role="alert" data-testid="frontmatter-fix-error">
            <ErrorIcon size={13} /> {state.error}
          </p>
        )}
      </div>
    </div>
  );
}
