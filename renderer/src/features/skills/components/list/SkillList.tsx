import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { IndexedSkill } from '../../search';
import { useSkillsStore } from '../../store';
import { SkillRow } from './SkillRow';

export const ROW_HEIGHT = 60;

interface SkillListProps {
  items: IndexedSkill[];
  onMove: (delta: number) => void;
  onOpen: () => void;
}

/** Virtualized: only the rows on screen exist, so thousands of skills scroll smoothly. */
export function SkillList({ items, onMove, onOpen }: SkillListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const selectedId = useSkillsStore((s) => s.selectedId);
  const openSkill = useSkillsStore((s) => s.open);
  // A narrow window hides the list while it shows a detail (skills.css): back in view, it scrolls again.
  const shown = useSkillsStore((s) => s.pane === 'list');
  // TanStack Virtual hands out fresh functions each render by design; we do not use the React Compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => items[index].skill.id,
    overscan: 10,
  });
  const selectedIndex = items.findIndex((item) => item.skill.id === selectedId);

  // Keep the selection on screen (align 'auto' does nothing when it already is).
  useEffect(() => {
    if (selectedIndex >= 0 && shown) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, shown, virtualizer]);

  const onKeyDown = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: page,
      PageUp: -page,
      Home: -items.length,
      End: items.length,
    };
    if (event.key in moves) {
      event.preventDefault();
      onMove(moves[event.key]);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onOpen();
    }
  };

  return (
    <div
      ref={scrollRef}
      className="skill-list"
      role="listbox"
      aria-label="Skills"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? `skill-option-${selectedIndex}` : undefined}
      data-testid="skill-list"
      data-count={items.length}
      onKeyDown={onKeyDown}
    >
      <div className="skill-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <SkillRow
            key={row.key}
            item={items[row.index]}
            index={row.index}
            selected={row.key === selectedId}
            style={{ transform: `translateY(${row.start}px)`, height: row.size }}
            onSelect={openSkill}
          />
        ))}
      </div>
    </div>
  );
}
