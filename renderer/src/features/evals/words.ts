import type { CandidateStatus } from '../../../../shared/contract';
import { STATUS_META } from '../routing/format';

/** A candidate status inside a sentence: "below T", "not recalled" (the T stays a capital). */
export const statusInSentence = (status: CandidateStatus): string => {
  const label = STATUS_META[status].label;
  return label.charAt(0).toLowerCase() + label.slice(1);
};
