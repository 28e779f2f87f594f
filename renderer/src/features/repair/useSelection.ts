import { useMemo } from 'react';
import type { RepairProposal } from '../../../../shared/contract';
import { wholeSelection, type ReviewSelection } from './selection';
import { useRepairStore } from './store';

/** The user's choices for a proposal; every hunk until they change something. */
export function useSelection(p: RepairProposal): ReviewSelection {
  const stored = useRepairStore((s) => s.selections[p.id]);
  return useMemo(() => stored ?? wholeSelection(p), [stored, p]);
}
