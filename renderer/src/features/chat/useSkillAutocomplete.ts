import { useMemo, useState, type KeyboardEvent } from 'react';
import { useSkillsStore } from '../skills/store';
import {
  applyCompletion,
  completionOptions,
  matchOptions,
  tokenAt,
  type CompletionToken,
  type SkillOption,
} from './autocomplete';

export interface SkillAutocomplete {
  token: CompletionToken | null;
  matches: SkillOption[];
  open: boolean;
  active: number;
  /** Call on change, select and click with the text and caret: the caret decides which token is completed. */
  track(value: string, caret: number): void;
  setActive(index: number): void;
  /** Handles the list's keys; true when the key was used (the composer then does nothing else). */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  choose(name: string): void;
}

/**
 * `$` and `/` completion of skill names (issue 8 item 4) over the composer's text. `apply`
 * writes the completed text and puts the caret after the name.
 */
export function useSkillAutocomplete(
  text: string,
  apply: (text: string, caret: number) => void,
): SkillAutocomplete {
  const index = useSkillsStore((s) => s.index);
  const options = useMemo(() => completionOptions(index.map((i) => i.skill)), [index]);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  // Esc closes the list for the token it was open on; typing another token opens it again.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);

  const token = tokenAt(text, Math.min(caret, text.length));
  const partial = token?.partial ?? null;
  const matches = useMemo(() => (partial === null ? [] : matchOptions(options, partial)), [options, partial]);
  const open = token !== null && token.start !== dismissedAt && matches.length > 0;
  const current = Math.min(active, Math.max(matches.length - 1, 0));

  const choose = (name: string) => {
    if (!token) return;
    const next = applyCompletion(text, token, name);
    setDismissedAt(null);
    setActive(0);
    apply(next.text, next.caret);
    setCaret(next.caret);
  };

  return {
    token,
    matches,
    open,
    active: current,
    track(value, next) {
      if (next === caret && value === text) return;
      setCaret(next);
      setActive(0);
      if (dismissedAt !== null && tokenAt(value, next)?.start !== dismissedAt) setDismissedAt(null);
    },
    setActive,
    onKeyDown(event) {
      if (!open) return false;
      const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      if (step) {
        setActive((current + step + matches.length) % matches.length);
      } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        choose(matches[current].name);
      } else if (event.key === 'Escape') {
        setDismissedAt(token.start);
      } else {
        return false;
      }
      event.preventDefault();
      event.stopPropagation();
      return true;
    },
    choose,
  };
}
