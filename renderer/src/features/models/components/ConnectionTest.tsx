import { useShallow } from 'zustand/react/shallow';
import { CheckIcon, ErrorIcon, WarningIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useModelsStore } from '../store';

/** "Test connection" and its one result line. */
export function ConnectionTest({ disabled }: { disabled: boolean }) {
  const { testing, result, test } = useModelsStore(
    useShallow((s) => ({ testing: s.testing, result: s.testResult, test: s.test })),
  );
  const tone = !result ? null : !result.ok ? 'red' : result.modelAvailable === false ? 'amber' : 'green';
  return (
    <div className="model-test">
      <button
        type="button"
        className="button"
        onClick={() => void test()}
        disabled={disabled || testing}
        data-testid="model-test"
      >
        {testing && <Spinner label="Testing" />} Test connection
      </button>
      {result && (
        <span
          className={`model-test__result tone-text-${tone}`}
          role="status"
          data-testid="model-test-result"
          data-status={result.status}
        >
          {tone === 'green' ? (
            <CheckIcon size={14} />
          ) : tone === 'amber' ? (
            <WarningIcon size={14} />
          ) : (
            <ErrorIcon size={14} />
          )}
          <span>
            {result.message}
            {result.ok && <span className="model-test__latency"> {result.latency_ms} ms</span>}
          </span>
        </span>
      )}
    </div>
  );
}
