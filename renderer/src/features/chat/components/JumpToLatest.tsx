import { useEffect, useState, type RefObject } from 'react';
import { ArrowDownIcon } from '../../../ui/icons';
import { COMPOSER_ID } from './Composer';

/** Scrolled up further than this from the newest text, the reader is reading, not following. */
const AWAY_PX = 120;

/**
 * Shown once the reader scrolled up from the newest text (the thread then stays where they are,
 * even while an answer streams): one click back to the bottom, and to the message box.
 */
export function JumpToLatest({ scroller }: { scroller: RefObject<HTMLElement | null> }) {
  const [away, setAway] = useState(false);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // column-reverse (thread.css): 0 is the bottom, scrolling up goes negative.
    const update = () => setAway(-el.scrollTop > AWAY_PX);
    update();
    el.addEventListener('scroll', update, { passive: true });
    return () => el.removeEventListener('scroll', update);
  }, [scroller]);
  if (!away) return null;
  return (
    <button
      type="button"
      className="button thread__jump"
      onClick={() => {
        scroller.current?.scrollTo({ top: 0 });
        setAway(false);
        // The button goes away under the pointer: the focus goes where the user writes next.
        document.getElementById(COMPOSER_ID)?.focus();
      }}
      data-testid="jump-to-latest"
    >
      <ArrowDownIcon size={13} />
      Jump to latest
    </button>
  );
}
