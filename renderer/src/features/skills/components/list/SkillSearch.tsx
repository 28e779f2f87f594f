import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Kbd } from '../../../../ui/Kbd';
import { SearchIcon, XIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';

interface SkillSearchProps {
  onMove: (delta: number) => void;
  onOpen: () => void;
}

const isTyping = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function SkillSearch({ onMove, onOpen }: SkillSearchProps) {
  const query = useSkillsStore((s) => s.query);
  const setQuery = useSkillsStore((s) => s.setQuery);
  const inputRef = useRef<HTMLInputElement>(null);

  // `/` focuses search from anywhere but a text field (Monaco's input is a textarea).
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target))
        return;
      event.preventDefault();
      inputRef.current?.focus();
      inputRef.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      onMove(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onOpen();
    } else if (event.key === 'Escape') {
      if (query) setQuery('');
      else event.currentTarget.blur();
    }
  };

  return (
    <div className="search">
      <SearchIcon className="search__icon" size={15} />
      <input
        ref={inputRef}
        className="search__input"
        type="search"
        placeholder="Search skills by name, description, trigger, tag…"
        aria-label="Search skills"
        spellCheck={false}
        autoComplete="off"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
        data-testid="skill-search"
      />
      {query ? (
        <button
          type="button"
          className="search__clear icon-button"
          aria-label="Clear search"
          onClick={() => {
            setQuery('');
            inputRef.current?.focus();
          }}
        >
          <XIcon size={14} />
        </button>
      ) : (
        <Kbd>/</Kbd>
      )}
    </div>
  );
}
