interface TruncatedPathProps {
  path: string;
  className?: string;
  testId?: string;
}

/** A path that loses its start, not its end, when it does not fit: the folder name is what matters. */
export function TruncatedPath({ path, className = '', testId }: TruncatedPathProps) {
  return (
    <span className={`truncated-path ${className}`} title={path} data-testid={testId}>
      <span dir="ltr">{path}</span>
    </span>
  );
}
