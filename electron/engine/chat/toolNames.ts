/**
 * The offered tool a model meant by `name`, when it named it the way some servers and models
 * do: with a `functions.` namespace (gpt-oss through some servers, Kimi's `functions.x:0`), in
 * another case, or with `-` for `_`. The name itself when it is offered, or when it matches no
 * offered tool or more than one (the model then hears that the tool is unknown, as before).
 */
export function offeredToolName(name: string, offered: readonly string[]): string {
  if (offered.includes(name)) return name;
  const key = (n: string) =>
    n
      .trim()
      .replace(/^(?:functions?|tools?)[.:/]/i, '')
      .replace(/:\d+$/, '')
      .toLowerCase()
      .replace(/-/g, '_');
  const matches = offered.filter((tool) => key(tool) === key(name));
  return matches.length === 1 ? matches[0] : name;
}
