import { describe, expect, it } from 'vitest';
import { nameToolCalls } from './unnamedToolCalls';

// Every OpenAI-compatible stream passes through nameToolCalls. A server may send one event as a
// single long line (a whole answer, a tool call's arguments), and it arrives in many chunks.
async function passThrough(text: string, chunk: number): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.subarray(i, i + chunk));
      c.close();
    },
  });
  return new Response(nameToolCalls(body)).text();
}

describe('a stream event on one long line', () => {
  it('passes byte for byte, 20 MB in 4 KB chunks', async () => {
    // Each chunk re-split everything held so far: over a minute for this line.
    const line = `data: {"choices":[{"index":0,"delta":{"content":"${'a'.repeat(20_000_000)}"}}]}\n\ndata: [DONE]\n\n`;
    expect(await passThrough(line, 4096)).toBe(line);
  });
});
