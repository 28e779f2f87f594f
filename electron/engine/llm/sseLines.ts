/**
 * An event stream rewritten line by line: `rewrite` gets each line without its end and returns
 * the lines to send in its place; `flush` the lines to add once the body ended. Line ends are
 * kept as they came (`\n` or `\r\n`). After a line `last` says ends the stream, the stream ends
 * and the body is cancelled (its connection let go), whether or not the server closed it.
 */
export function rewriteSseLines(
  body: ReadableStream<Uint8Array>,
  rewrite: (line: string) => string[],
  flush: () => string[] = () => [],
  last: (line: string) => boolean = () => false,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let partial = '';
  const lines = (text: string) => {
    const end = text.endsWith('\r') ? '\r\n' : '\n';
    return rewrite(text.slice(0, text.length - end.length + 1)).map((l) => `${l}${end}`);
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(bytes, controller) {
        const text = decoder.decode(bytes, { stream: true });
        partial += text;
        // Split only when a line ended: a long line comes in many chunks, and splitting all that
        // was held at each one read a 2 MB line 500 times over (0.74 s; 20 MB over a minute).
        if (!text.includes('\n')) return;
        const complete = partial.split('\n');
        partial = complete.pop() ?? '';
        const end = complete.findIndex((line) => last(line.replace(/\r$/, '')));
        const out = (end === -1 ? complete : complete.slice(0, end + 1)).flatMap(lines).join('');
        if (out) controller.enqueue(encoder.encode(out));
        // Cancels the body: pipeThrough hears the writable side fail and lets the source go.
        if (end !== -1) controller.terminate();
      },
      flush(controller) {
        partial += decoder.decode();
        const out = [...(partial ? lines(partial) : []), ...flush().map((l) => `${l}\n`)].join('');
        if (out) controller.enqueue(encoder.encode(out));
      },
    }),
  );
}
