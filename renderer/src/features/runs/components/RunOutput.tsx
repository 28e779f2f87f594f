import type { RunResult } from '../../../../../shared/contract';
import type { OutputChunk } from '../model';

/** Output while the run goes on: stdout and stderr as they arrive, stderr marked. */
function LiveOutput({ chunks, started }: { chunks: OutputChunk[]; started: boolean }) {
  return (
    <section className="run-section" aria-label="Output so far">
      <h3 className="run-section__title">Output so far</h3>
      {chunks.length === 0 ? (
        <p className="run-section__empty">{started ? 'Nothing printed yet.' : 'Nothing has run yet.'}</p>
      ) : (
        // column-reverse keeps the view on the newest line as output arrives, without a scroll effect.
        <pre className="run-output run-output--live" role="log" data-testid="run-live-output">
          <span>
            {chunks.map((c, i) =>
              c.stream === 'stderr' ? (
                <span key={i} className="run-output__stderr" title="stderr">
                  {c.text}
                </span>
              ) : (
                <span key={i}>{c.text}</span>
              ),
            )}
          </span>
        </pre>
      )}
    </section>
  );
}

/** A finished run's stdout (or a direct skill's filled template) and stderr, apart. */
function FinalOutput({ result }: { result: RunResult }) {
  return (
    <>
      <section className="run-section" aria-label="Output">
        <h3 className="run-section__title">
          Output
          {result.exit_code !== null && (
            <span className="run-section__aside" data-testid="run-exit-code">
              exit code {result.exit_code}
            </span>
          )}
        </h3>
        {result.output ? (
          <pre className="run-output" data-testid="run-output">
            {result.output}
          </pre>
        ) : (
          <p className="run-section__empty" data-testid="run-output-empty">
            {result.command.length
              ? 'It printed nothing.'
              : result.status === 'denied'
                ? 'Nothing ran.'
                : 'No output.'}
          </p>
        )}
        {result.truncated && <p className="run-section__hint">The output passed the size cap and was cut.</p>}
      </section>
      {result.stderr && (
        <section className="run-section" aria-label="stderr">
          <h3 className="run-section__title">stderr</h3>
          <pre className="run-output run-output--stderr" data-testid="run-stderr">
            {result.stderr}
          </pre>
        </section>
      )}
    </>
  );
}

interface RunOutputProps {
  result: RunResult | null;
  chunks: OutputChunk[];
  /** The command has started (a `running` step). */
  started: boolean;
}

export function RunOutput({ result, chunks, started }: RunOutputProps) {
  return result ? <FinalOutput result={result} /> : <LiveOutput chunks={chunks} started={started} />;
}
