/**
 * `fetch` for `/v1/embeddings` that puts the vectors in the order of their `index`. The API
 * gives each vector the index of its input, and a server may answer out of order; the AI SDK
 * reads them in the order they come, which gave one skill another's vector. Any other
 * body passes untouched (service.ts checks what came).
 */
export const embeddingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const text = await response.text();
  const rebuilt = (body: string) => {
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
  let body: { data?: Array<{ index?: unknown }> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return rebuilt(text);
  }
  const data = body?.data;
  if (!Array.isArray(data) || !data.every((d) => typeof d?.index === 'number')) return rebuilt(text);
  const sorted = [...data].sort((a, b) => (a.index as number) - (b.index as number));
  if (sorted.every((d, i) => d === data[i])) return rebuilt(text);
  return rebuilt(JSON.stringify({ ...body, data: sorted }));
};
