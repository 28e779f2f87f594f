import { useState } from 'react';
import { CheckIcon, CopyIcon } from '../../../ui/icons';

/**
 * Copies a path: the window cannot open files itself (DESIGN §1), so the user takes the path
 * to a file manager or terminal. Without clipboard access it says so and the path stays selectable.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button
      type="button"
      className="button button--small button--quiet copy-button"
      onClick={() => void copy()}
      onBlur={() => setState('idle')}
      aria-label={`${label}: ${text}`}
      title={state === 'failed' ? 'The clipboard is not available here: select the path and copy it' : text}
      data-testid="copy-path"
      data-state={state}
    >
      {state === 'copied' ? <CheckIcon size={13} /> : <CopyIcon size={13} />}
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select to copy' : 'Copy path'}
    </button>
  );
}
