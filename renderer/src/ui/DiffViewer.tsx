import { Suspense, lazy } from 'react';
import type { MonacoDiffProps } from './monaco/MonacoDiff';
import { Spinner } from './Spinner';

// Monaco is several megabytes: loaded on first use, like CodeViewer.
const MonacoDiff = lazy(() => import('./monaco/MonacoDiff').then((m) => ({ default: m.MonacoDiff })));

interface DiffViewerProps extends MonacoDiffProps {
  testId?: string;
  /** A name for screen readers: "Changes to scripts/total.py". */
  label: string;
}

/** Original on the left, proposed on the right (editable when asked), filling its container. */
export function DiffViewer({ testId, label, ...props }: DiffViewerProps) {
  return (
    <div
      className="code-viewer diff-viewer"
      data-testid={testId}
      data-language={props.language}
      aria-label={label}
      role="region"
    >
      <Suspense
        fallback={
          <div className="code-viewer__loading">
            <Spinner label="Loading the diff" />
          </div>
        }
      >
        <MonacoDiff {...props} />
      </Suspense>
    </div>
  );
}
