import { useRef, useState } from 'react';
import { CheckIcon, CopyIcon } from './icons';

interface CopyButtonProps {
  /** The text to copy, read at click time (a code block's text lives in the DOM). */
  text: () => string;
  /** What is copied, for the accessible name: "Copy code", "Copy answer". */
  label: string;
  className?: string;
  testId?: string;
}

/** Copies to the clipboard and says so for a moment; a refused clipboard says that instead. */
export function CopyButton({ text, label, className = '', testId }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const copy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text());
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), 1600);
  };

  return (
    <button
      type="button"
      className={`copy-action ${className}`}
      onClick={() => void copy()}
      aria-label={label}
      title={label}
      data-testid={testId}
      data-state={state}
    >
      {state === 'copied' ? <CheckIcon size={13} /> : <CopyIcon size={13} />}
      <span className="copy-action__text" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
      </span>
    </button>
  );
}
