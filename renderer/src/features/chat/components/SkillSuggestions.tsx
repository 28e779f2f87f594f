import type { SkillOption } from '../autocomplete';

interface SkillSuggestionsProps {
  id: string;
  trigger: '$' | '/';
  options: SkillOption[];
  active: number;
  onHover(index: number): void;
  onChoose(name: string): void;
}

export const optionId = (listId: string, index: number) => `${listId}-${index}`;

/** The `$` / `/` skill list above the composer; the textarea keeps focus and drives it by keys. */
export function SkillSuggestions({ id, trigger, options, active, onHover, onChoose }: SkillSuggestionsProps) {
  return (
    <ul
      className="skill-suggestions"
      id={id}
      role="listbox"
      aria-label="Skills"
      data-testid="skill-suggestions"
    >
      {options.map((option, i) => (
        <li
          key={option.name}
          id={optionId(id, i)}
          role="option"
          aria-selected={i === active}
          className={`skill-suggestions__item${i === active ? ' is-active' : ''}`}
          // mousedown, not click: the textarea must not lose focus (and its caret) first.
          onMouseDown={(event) => {
            event.preventDefault();
            onChoose(option.name);
          }}
          onMouseMove={() => i !== active && onHover(i)}
          ref={i === active ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
          data-testid="skill-suggestion"
          data-skill-name={option.name}
        >
          <span className="skill-suggestions__name">
            {trigger}
            {option.name}
          </span>
          <span className="skill-suggestions__type">{option.type}</span>
          <span className="skill-suggestions__description">{option.description}</span>
        </li>
      ))}
    </ul>
  );
}
