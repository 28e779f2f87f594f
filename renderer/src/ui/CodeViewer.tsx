import { Suspense, lazy } from 'react';
import type { MonacoViewerProps } from './monaco/MonacoViewer';
import { Spinner } from './Spinner';

// Monaco is several megabytes: load it on first use so the first paint never waits for it.
const MonacoViewer = lazy(() => import('./monaco/MonacoViewer').then((m) => ({ default: m.MonacoViewer })));

interface CodeViewerProps extends MonacoViewerProps {
  testId?: string;
}

/** A read-only Monaco editor that fills its container. */
export function CodeViewer({ testId, ...props }: CodeViewerProps) {
  return (
    <div className="code-viewer" data-testid={testId} data-language={props.language}>
      <Suspense
        fallback={
          <div className="code-viewer__loading">
            <Spinner label="Loading editor" />
          </div>
        }
      >
        <MonacoViewer {...props} />
      </Suspense>
    </div>
  );
}
