import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { MAX_TOOL_ROUNDS } from '../engine/chat/modelLoop';
import { cliWithModel } from '../testing/cliBundle';
import { messageText, type ChatRequest, type ScriptedReply } from '../testing/modelServer';

// The last round of a turn's tool loop, when the tool rounds are used up. It sent the history with
// its tool calls but no tool definitions: Anthropic's OpenAI-compatible endpoint refuses such a
// request with a 400, and nothing told the model that it had to answer now. Driven through
// `skilldeck chat --json` against the scripted server, which here answers as such providers do.
const cli = cliWithModel('skilldeck-cli-last-round-', {
  'doc-helper/SKILL.md':
    '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\n# Doc helper\n\nRead references/style.md.\n',
  'doc-helper/references/style.md': 'Use sentence case headings.\n',
  'doc-helper/skill.yaml': 'spec: { type: instruction }\n',
});

const hasToolCalls = (request: ChatRequest) => request.messages.some((m) => (m.tool_calls ?? []).length > 0);

/**
 * A model that reads a new file each round for as long as it may call tools, on a server that, as
 * Anthropic's does, refuses tool calls in a history that defines no tools.
 */
function tirelessReader(request: ChatRequest, index: number): ScriptedReply {
  if (hasToolCalls(request) && !request.tools?.length)
    return {
      error: {
        status: 400,
        type: 'invalid_request_error',
        message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
      },
    };
  if (request.tool_choice === 'none') return { text: 'Headings use sentence case; I read enough to say so.' };
  return { toolCalls: [{ name: 'read_skill_file', arguments: { path: `references/part${index}.md` } }] };
}

describe('skilldeck chat: the last tool round of a turn', () => {
  it('keeps the tools with tool_choice none and tells the model to answer now', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.setHandler((request, index) => tirelessReader(request, index - first));
    const { code, stdout } = await cli.run([
      'chat',
      '$doc-helper which heading style do we use?',
      '--json',
      '--deny',
    ]);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    const requests = cli.server.chatRequests().slice(first);
    expect(requests).toHaveLength(MAX_TOOL_ROUNDS + 1);
    const last = requests.at(-1)!;
    expect(last.tools?.map((t) => t.function.name).sort()).toEqual(
      requests[0].tools?.map((t) => t.function.name).sort(),
    );
    expect(last.tool_choice).toBe('none');
    expect(messageText(last.messages[0])).toMatch(/answer now/i);
    // The rounds before are asked as before: tools, and the model's own choice.
    expect(requests[0].tool_choice).not.toBe('none');
    expect(messageText(requests[0].messages[0])).not.toMatch(/answer now/i);
    expect(turn).toMatchObject({
      status: 'success',
      answer: 'Headings use sentence case; I read enough to say so.',
    });
    expect(code).toBe(0);
    expect(turn.steps.filter((s) => s.kind === 'tool')).toHaveLength(MAX_TOOL_ROUNDS);
    // DESIGN §7: the turn's JSON keeps its shape.
    const json = JSON.parse(stdout) as Record<string, unknown>;
    for (const key of ['conversation_id', 'route', 'steps', 'answer', 'status', 'usage'])
      expect(json).toHaveProperty(key);
    expect(Object.keys(json.usage as object).sort()).toEqual(['input_tokens', 'output_tokens']);
  }, 60_000);

  it('a model that calls tools anyway in the last round still ends with the clear status', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.setHandler((_request, index) => ({
      toolCalls: [{ name: 'read_skill_file', arguments: { path: `references/more${index - first}.md` } }],
    }));
    const { stdout } = await cli.run([
      'chat',
      '$doc-helper which heading style do we use?',
      '--json',
      '--deny',
    ]);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(turn.steps.filter((s) => s.kind === 'tool').length).toBeGreaterThanOrEqual(MAX_TOOL_ROUNDS);
    expect(turn.steps.find((s) => s.kind === 'run')?.error).toMatch(
      `Stopped after ${MAX_TOOL_ROUNDS} tool rounds`,
    );
    expect(turn.status).toBe('failure');
    expect(cli.server.chatRequests()[first + MAX_TOOL_ROUNDS].tool_choice).toBe('none');
  }, 60_000);

  it('text the model sends beside a call in the last round is its answer; the call does not run', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.setHandler((request, index) => ({
      ...(request.tool_choice === 'none' ? { text: 'Sentence case, from what I read.' } : {}),
      toolCalls: [{ name: 'read_skill_file', arguments: { path: `references/last${index - first}.md` } }],
    }));
    const { code, stdout } = await cli.run([
      'chat',
      '$doc-helper which heading style do we use?',
      '--json',
      '--deny',
    ]);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case, from what I read.' });
    expect(code).toBe(0);
    expect(turn.steps.filter((s) => s.kind === 'tool')).toHaveLength(MAX_TOOL_ROUNDS);
  }, 60_000);
});
