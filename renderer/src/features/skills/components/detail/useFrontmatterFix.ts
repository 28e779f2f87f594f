import { useState } from 'react';
import { FRONTMATTER_FIX_CODES, type SkillDetail } from '../../../../../../shared/contract';
import { client, errorMessage } from '../../../../lib/client';
import { reviewHash } from '../../../repair/model';
import { useRepairStore } from '../../../repair/store';

/**
 * The frontmatter fix of a skill that does not load because of where its frontmatter is (never
 * closed, below other content, without its opening `---`, or missing): `fixable` when there is
 * one; `fix()` opens its review as a diff, where nothing is written until the user applies it.
 */
export function useFrontmatterFix(detail: SkillDetail) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const fixable = detail.problems.some(
    (p) => p.severity === 'error' && FRONTMATTER_FIX_CODES.includes(p.code),
  );
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
  return { fixable, ...state, fix };
}
