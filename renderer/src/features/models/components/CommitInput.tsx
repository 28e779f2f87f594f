import { useState, type InputHTMLAttributes } from 'react';

interface CommitInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'onBlur' | 'onKeyDown'
> {
  value: string;
  /** Called with the trimmed text on Enter or blur, when it differs from `value`. */
  onCommit: (value: string) => void;
  /** A message when the text cannot be committed; the draft stays and nothing is sent. */
  validate?: (value: string) => string | null;
  /** Commit at once when the text becomes one of these (a pick from a datalist). */
  commitOn?: readonly string[];
  testId: string;
}

/**
 * A text input that keeps the user's draft until Enter or blur, so a half-typed URL is
 * never saved (and announced) keystroke by keystroke. Esc puts the saved value back.
 */
export function CommitInput({
  value,
  onCommit,
  validate,
  commitOn,
  testId,
  className,
  ...rest
}: CommitInputProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? value;
  const problem = draft !== null && draft.trim() !== '' ? (validate?.(draft.trim()) ?? null) : null;
  const commit = (next: string) => {
    const trimmed = next.trim();
    if (validate && trimmed !== '' && validate(trimmed)) return;
    setDraft(null);
    if (trimmed !== value) onCommit(trimmed);
  };
  return (
    <>
      <input
        {...rest}
        className={`${className ?? 'field__input'}${problem ? ' is-invalid' : ''}`}
        value={text}
        aria-invalid={problem !== null}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          setDraft(event.target.value);
          if (commitOn?.includes(event.target.value)) commit(event.target.value);
        }}
        onBlur={() => draft !== null && commit(draft)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(text);
          if (event.key === 'Escape') setDraft(null);
        }}
        data-testid={testId}
      />
      {problem && (
        <span className="field__error" data-testid={`${testId}-error`}>
          {problem}
        </span>
      )}
    </>
  );
}
