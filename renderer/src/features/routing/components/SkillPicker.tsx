import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { SearchIcon, XIcon } from '../../../ui/icons';
import { parseQuery, type IndexedSkill } from '../../skills/search';
import { useSkillsStore } from '../../skills/store';

const MAX_OPTIONS = 40;

interface SkillPickerProps {
  value: string | null;
  onChange: (id: string | null) => void;
  placeholder: string;
  /** Ids shown with a "candidate" mark, so the user sees which are already in the panel. */
  marked: ReadonlySet<string>;
  /** What the picker is for: its test ids and its field's label (two pickers may share a view). */
  purpose?: { testId: string; label: string };
}

const WHY_NOT = { testId: 'why-not', label: 'Skill to explain' };

/** A searchable select over every loaded skill (thousands: it filters, then shows the first 40). */
export function SkillPicker({ value, onChange, placeholder, marked, purpose = WHY_NOT }: SkillPickerProps) {
  const index = useSkillsStore((s) => s.index);
  const selected = useSkillsStore((s) => (value ? s.byId[value] : undefined));
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();

  const options = useMemo(() => {
    const words = parseQuery(text);
    const matches: IndexedSkill[] = [];
    for (const item of index) {
      if (words.every((w) => item.skill.name.toLowerCase().includes(w) || item.haystack.includes(w))) {
        matches.push(item);
        if (matches.length >= MAX_OPTIONS) break;
      }
    }
    return matches;
  }, [index, text]);

  const choose = (item: IndexedSkill | undefined) => {
    if (!item) return;
    onChange(item.skill.id);
    setText('');
    setOpen(false);
    inputRef.current?.blur();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => Math.max(0, Math.min(options.length - 1, a + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  return (
    <div className="skill-picker" data-testid={`${purpose.testId}-picker`}>
      <div className="search skill-picker__field">
        <SearchIcon className="search__icon" size={15} />
        <input
          ref={inputRef}
          className="search__input"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-label={purpose.label}
          placeholder={selected ? selected.name : placeholder}
          value={text}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          data-testid={`${purpose.testId}-search`}
        />
        {value && (
          <button
            type="button"
            className="search__clear icon-button"
            aria-label="Clear the chosen skill"
            onClick={() => onChange(null)}
          >
            <XIcon size={14} />
          </button>
        )}
      </div>
      {open && (
        <ul className="skill-picker__list" role="listbox" id={listId}>
          {options.length === 0 && <li className="skill-picker__empty">No skill matches “{text}”</li>}
          {options.map((item, i) => (
            <li
              key={item.skill.id}
              role="option"
              aria-selected={i === active}
              className={`skill-picker__option${i === active ? ' is-active' : ''}`}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(item);
              }}
              onMouseEnter={() => setActive(i)}
              data-testid={`${purpose.testId}-option`}
              data-skill-name={item.skill.name}
              title={item.skill.description}
            >
              <span className="skill-picker__name">{item.skill.name}</span>
              {marked.has(item.skill.id) && <span className="skill-picker__mark">candidate</span>}
              <span className="skill-picker__desc">{item.skill.description}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
