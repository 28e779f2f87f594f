import { describe, expect, it } from 'vitest';
import { docHelperChat, STYLE } from '../../testing/docHelperChat';

// More answers shaped the way servers other than OpenAI shape them (found by driving the CLI
// against a scripted server written apart from ours): the real engine, provider code, loopback HTTP.
const chat = docHelperChat();
const { send, toolResults } = chat;

const READ_STYLE = { name: 'read_skill_file', arguments: { path: 'references/style.md' } };
const READ_OTHER = { name: 'read_skill_file', arguments: { path: 'SKILL.md' } };
const ASK = '$doc-helper which heading style do we use?';
const HELLO = 'hello, how are you today?';

describe('a stream with more than one choice (a server that ignores n)', () => {
  it('answers with the first choice only, its text alone', async () => {
    chat.server().enqueue({ text: 'First answer.', secondChoice: { text: 'Second answer.' } });
    expect(await send(HELLO)).toMatchObject({ status: 'success', answer: 'First answer.' });
  });

  it('runs only the first choice’s tool calls', async () => {
    chat
      .server()
      .enqueue(
        { toolCalls: [READ_STYLE], secondChoice: { toolCalls: [READ_OTHER] } },
        { text: 'Sentence case.' },
      );
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.' });
    expect(toolResults(1)).toEqual([STYLE]);
    expect(turn.steps.filter((s) => s.kind === 'tool')).toHaveLength(1);
  });
});

describe('one JSON completion where a stream was asked for', () => {
  it('with its content as a list of text parts answers with their text', async () => {
    chat.server().enqueue({ text: 'Hello there.', ignoreStream: true, contentParts: true });
    expect(await send(HELLO)).toMatchObject({ status: 'success', answer: 'Hello there.' });
  });

  it('with a refusal shows the refusal, as a streamed one is shown', async () => {
    chat.server().enqueue({ refusal: "I can't help with that.", ignoreStream: true });
    expect(await send(HELLO)).toMatchObject({ status: 'success', answer: "I can't help with that." });
    chat.server().enqueue({ refusal: "I can't help with that." });
    expect(await send(HELLO)).toMatchObject({ status: 'success', answer: "I can't help with that." });
  });
});

describe('an answer the provider’s content filter stopped', () => {
  it('says so where the text stops', async () => {
    chat.server().enqueue({ text: 'The first part', finishReason: 'content_filter' });
    const turn = await send(HELLO);
    expect(turn.status).toBe('success');
    expect(turn.answer).toBe("The first part\n\n_(The provider's content filter stopped the answer here.)_");
  });

  it('with no text at all says the filter stopped it', async () => {
    chat.server().enqueue({ finishReason: 'content_filter' }, { finishReason: 'content_filter' });
    const turn = await send(ASK);
    expect(turn.error).toContain("the provider's content filter stopped its answer before any text");
  });
});

describe('a tool named the way some servers and models name it', () => {
  it.each(['functions.read_skill_file', 'functions.read_skill_file:0', 'Read_Skill_File', 'read-skill-file'])(
    '%s runs the offered tool',
    async (name) => {
      chat.server().enqueue({ toolCalls: [{ ...READ_STYLE, name }] }, { text: 'Sentence case.' });
      const turn = await send(ASK);
      expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.' });
      expect(toolResults(1)).toEqual([STYLE]);
      expect(turn.steps.find((s) => s.kind === 'tool')?.name).toBe('read_skill_file');
    },
  );
});

describe('reasoning sent as text between <think> tags (no reasoning parser on the server)', () => {
  it('is not part of the answer, whole or cut across chunks', async () => {
    chat.server().enqueue({ text: ['<thi', 'nk>Greeting; ', 'be brief.</th', 'ink>\n\n', 'Hi! Fine.'] });
    expect(await send(HELLO)).toMatchObject({ status: 'success', answer: 'Hi! Fine.' });
    chat.server().enqueue({ text: '<think>Greeting.</think>Hi! Fine.', ignoreStream: true });
    expect(await send(HELLO)).toMatchObject({ status: 'success', answer: 'Hi! Fine.' });
  });
});

describe('a tool name streamed in pieces', () => {
  it('is one call by the whole name, streamed or alone in the reply', async () => {
    chat
      .server()
      .enqueue(
        { toolCalls: [{ ...READ_STYLE, nameSplit: true }] },
        { text: 'Sentence case.' },
        { text: 'Checking.', toolCalls: [{ ...READ_STYLE, nameSplit: true }, READ_OTHER] },
        { text: 'Sentence case.' },
      );
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.' });
    expect(toolResults(1)).toEqual([STYLE]);
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => s.name)).toEqual(['read_skill_file']);
    await send(ASK);
    expect(toolResults(3)[0]).toEqual(STYLE);
    expect(toolResults(3)).toHaveLength(2);
  });
});

describe('a tool call the output limit cut off mid-arguments (finish reason length)', () => {
  it('is not run, and the model hears it ran out of room', async () => {
    chat.server().enqueue(
      {
        toolCalls: [{ name: 'read_skill_file', arguments: '{"path": "references/sty' }],
        finishReason: 'length',
      },
      { text: 'Sentence case.' },
    );
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.' });
    const [result] = toolResults(1);
    expect(result).toMatchObject({ status: 'error' });
    expect(result.error).toContain("cut off at the model's output limit before its arguments ended");
    expect(turn.steps.find((s) => s.kind === 'tool')).toMatchObject({
      name: 'read_skill_file',
      status: 'error',
    });
  });
});

describe('an HTML error page from a proxy in front of the model server', () => {
  const NGINX_502 =
    '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';

  it('says what the page says, in one line, not its markup', async () => {
    chat.server().enqueue({ error: { status: 502, message: '', html: NGINX_502 } });
    const turn = await send(HELLO);
    expect(turn.status).toBe('error');
    expect(turn.error).toBe(
      `The model did not answer: 502: the server at ${chat.server().baseURL} failed (an HTML page: "502 Bad Gateway").`,
    );
  });

  it('a page too long to quote, without a title, is named by its heading', async () => {
    const page = `<!DOCTYPE html><html><head><style>body { color: red }</style></head><body><h1>Error 524 &amp; timeout</h1>${'<p>filler</p>'.repeat(200)}</body></html>`;
    chat.server().enqueue({ error: { status: 524, message: '', html: page } });
    const turn = await send(HELLO);
    expect(turn.error).toBe(
      `The model did not answer: 524: the server at ${chat.server().baseURL} failed (an HTML page: "Error 524 & timeout").`,
    );
  });
});

describe('a model that thinks before its tool calls (DeepSeek, OpenRouter, Qwen3)', () => {
  it.each(['reasoning_content', 'reasoning'] as const)(
    'its %s goes back with its calls in the next request, and is never the answer',
    async (field) => {
      chat
        .server()
        .enqueue(
          { reasoning: { text: 'The style guide is in references.', field }, toolCalls: [READ_STYLE] },
          { reasoning: { text: 'It says sentence case.', field }, text: 'Sentence case.' },
        );
      const turn = await send(ASK);
      expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.' });
      const assistant = chat
        .server()
        .chatRequests()[1]
        .messages.find((m) => m.role === 'assistant')!;
      // DeepSeek's thinking mode refuses a tool-call round sent back without it (a 400).
      expect(assistant.reasoning_content).toBe('The style guide is in references.');
      expect(assistant.tool_calls).toHaveLength(1);
    },
  );
});
