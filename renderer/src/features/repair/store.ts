import { create } from 'zustand';
import { client } from '../../lib/client';
import { createHistorySlice, type HistorySlice } from './history';
import { createOfferSlice, type OfferSlice } from './offers';
import { createReviewSlice, type ReviewSlice } from './review';

export type RepairStore = OfferSlice &
  ReviewSlice &
  HistorySlice & {
    /** Follows the repair events; later calls do nothing. */
    start(): void;
  };

let started = false;

/** The repair loop as the window sees it (issue 9 items 5–7): offers, reviews and history. */
export const useRepairStore = create<RepairStore>()((set, get, api) => ({
  ...createOfferSlice(set, get, api),
  ...createReviewSlice(set, get, api),
  ...createHistorySlice(set, get, api),

  start() {
    if (started) return;
    started = true;
    const c = client();
    c.on('repair.transition', (t) => {
      get().addTransition(t);
      // A repair that ended may have left proposals: the review loads them if it is open.
      if ((t.state === 'success' || t.state === 'fallback') && get().proposals[t.repair_id])
        void get().loadRepair(t.repair_id);
    });
    c.on('repair.proposed', (p) => get().putProposal(p));
    c.on('repair.applied', () => get().refreshHistories());
    c.on('repair.undone', () => get().refreshHistories());
    // A changed skill makes its pending proposals stale; the engine says which.
    c.on('skills.changed', () => {
      for (const [id, list] of Object.entries(get().proposals))
        if (list.status === 'ready') void get().loadRepair(id);
    });
  },
}));
