import { useRef, type ReactNode } from 'react';
import { CopyButton } from './CopyButton';

/** A fenced code block with its language and a copy button (chat answers). */
export function CodeBlock({ language, children }: { language: string | null; children: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  return (
    <div className="code-block" data-testid="code-block" data-language={language ?? ''}>
      <div className="code-block__bar">
        <span className="code-block__language">{language ?? 'text'}</span>
        <CopyButton
          text={() => pre.current?.innerText.replace(/\n$/, '') ?? ''}
          label="Copy code"
          className="code-block__copy"
          testId="copy-code"
        />
      </div>
      <pre ref={pre}>{children}</pre>
    </div>
  );
}
