/** A unified diff as text, each line tinted by its kind (`+` added, `-` removed, `@@` hunk header). */
export function UnifiedDiff({ text, testId }: { text: string; testId?: string }) {
  const lines = text.replace(/\n$/, '').split('\n');
  return (
    <pre className="unified-diff" data-testid={testId} tabIndex={0} aria-label="The revision's diff">
      {lines.map((line, i) => {
        const kind =
          line.startsWith('+++') || line.startsWith('---')
            ? 'file'
            : line.startsWith('@@')
              ? 'hunk'
              : line.startsWith('+')
                ? 'add'
                : line.startsWith('-')
                  ? 'del'
                  : 'ctx';
        return (
          <span key={i} className={`unified-diff__line is-${kind}`}>
            {line || ' '}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
