import { describe, expect, it } from 'vitest';
import { docHelperChat, STYLE } from '../../testing/docHelperChat';

// Streams as servers other than OpenAI shape them (found by driving the CLI against a scripted
// server written apart from ours): the real engine, the real provider code, loopback HTTP.
const chat = docHelperChat();
const { send, toolResults } = chat;

const READ_STYLE = { name: 'read_skill_file', arguments: { path: 'references/style.md' } };
const ASK = '$doc-helper which heading style do we use?';

describe('a stream that ends with [DONE] but no finish reason', () => {
  it('is a finished answer, and a finished tool-call round', async () => {
    chat
      .server()
      .enqueue(
        { toolCalls: [READ_STYLE], finishReason: null },
        { text: 'Sentence case.', finishReason: null },
      );
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.', skill: 'doc-helper' });
    expect(toolResults(1)).toEqual([STYLE]);
    expect(chat.server().chatRequests()).toHaveLength(2);
  });

  it('in plain chat too', async () => {
    chat.server().enqueue({ text: 'Hello there.', finishReason: null });
    const turn = await send('hello, how are you today?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Hello there.' });
  });
});

describe('a usage chunk without a choices field', () => {
  it('counts its tokens in the turn', async () => {
    chat.server().enqueue({
      text: 'Hello there.',
      usage: { prompt_tokens: 12, completion_tokens: 3 },
      usageWithoutChoices: true,
    });
    const turn = await send('hello, how are you today?');
    expect(turn).toMatchObject({ status: 'success', usage: { input_tokens: 12, output_tokens: 3 } });
  });
});

describe('tool-call arguments sent as a JSON object, not as its text', () => {
  it('runs the call with them, streamed or not', async () => {
    chat
      .server()
      .enqueue(
        { toolCalls: [{ ...READ_STYLE, objectArguments: true }] },
        { text: 'Sentence case.' },
        { toolCalls: [{ ...READ_STYLE, objectArguments: true }], ignoreStream: true },
        { text: 'Sentence case.' },
      );
    expect(await send(ASK)).toMatchObject({ status: 'success', answer: 'Sentence case.' });
    expect(toolResults(1)).toEqual([STYLE]);
    expect(await send(ASK)).toMatchObject({ status: 'success', answer: 'Sentence case.' });
    expect(toolResults(3)).toEqual([STYLE]);
  });
});

describe('a 200 answer whose body is no chat completion', () => {
  it('says what the server sent: its error, or that it is no completion', async () => {
    chat.server().enqueue({ body: '{"error":{"message":"The model is overloaded."}}' });
    const overloaded = await send('hello, how are you today?');
    expect(overloaded.status).toBe('error');
    expect(overloaded.error).toBe(
      `The model did not answer: The model call to ${chat.server().baseURL} failed: it answered 200 with an error: The model is overloaded.`,
    );
    chat.server().enqueue({ body: 'Welcome to nginx!' });
    const garbage = await send('hello, how are you today?');
    expect(garbage.error).toBe(
      `The model did not answer: The model call to ${chat.server().baseURL} failed: it answered 200 with a body that is no chat completion: Welcome to nginx!.`,
    );
  });

  it('says the same of a body labelled as text or as nothing that holds no event at all', async () => {
    for (const bodyType of ['text/plain', 'application/octet-stream']) {
      chat.server().enqueue({ body: 'Welcome to nginx!\nIt works.\n', bodyType });
      const turn = await send('hello, how are you today?');
      expect(turn.status).toBe('error');
      expect(turn.error).toBe(
        `The model did not answer: The model call to ${chat.server().baseURL} failed: it answered 200 with a body that is no chat completion: Welcome to nginx! It works.`,
      );
    }
  });

  // LiteLLM-style gateways answer a bad request with an error body labelled as an event stream:
  // the error was shown as "a body that is no chat completion: {json}" instead of in its words.
  it('an error body labelled as an event stream is said as the server’s error', async () => {
    chat.server().enqueue({
      body: '{"error":{"message":"Invalid model name passed in model=m","type":"invalid_request_error"}}',
      bodyType: 'text/event-stream',
    });
    const turn = await send('hello, how are you today?');
    expect(turn.status).toBe('error');
    expect(turn.error).toBe(
      `The model did not answer: The model call to ${chat.server().baseURL} failed: it answered 200 with an error: Invalid model name passed in model=m.`,
    );
  });

  it('a web page, labelled as one or as JSON, is named by its title and the base URL is blamed', async () => {
    const page =
      '<!doctype html><html><head><title>Open WebUI</title></head><body><div id="app"></div></body></html>';
    for (const bodyType of ['text/html; charset=utf-8', 'application/json']) {
      chat.server().enqueue({ body: page, bodyType });
      const turn = await send('hello, how are you today?');
      expect(turn.status).toBe('error');
      expect(turn.error).toBe(
        `The model did not answer: The model call to ${chat.server().baseURL} failed: it answered 200 with an HTML page: "Open WebUI", not a chat completion: check the base URL (it usually ends in /v1).`,
      );
    }
  });
});
