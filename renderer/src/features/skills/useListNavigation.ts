import type { RefObject } from 'react';
import type { IndexedSkill } from './search';
import { useSkillsStore } from './store';

/** ↑/↓ (and paging) move the selection through the visible list; Enter opens it. */
export function useListNavigation(
  visible: readonly IndexedSkill[],
  detailRef: RefObject<HTMLElement | null>,
) {
  const select = useSkillsStore((s) => s.select);
  const openSkill = useSkillsStore((s) => s.open);

  const move = (delta: number) => {
    if (visible.length === 0) return;
    const { selectedId } = useSkillsStore.getState();
    const current = visible.findIndex((item) => item.skill.id === selectedId);
    const next =
      current < 0
        ? delta > 0
          ? 0
          : visible.length - 1
        : Math.min(visible.length - 1, Math.max(0, current + delta));
    if (next !== current) select(visible[next].skill.id);
  };

  const open = () => {
    const { selectedId } = useSkillsStore.getState();
    const target = selectedId ?? visible[0]?.skill.id;
    if (!target) return;
    openSkill(target);
    detailRef.current?.focus();
  };

  return { move, open };
}
