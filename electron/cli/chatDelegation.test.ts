import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { messageText } from '../testing/modelServer';

// run_skill from an instruction skill's model, through `skilldeck chat --json`: a real process,
// the real bwrap sandbox and the scripted OpenAI-compatible server on loopback.
const cli = cliWithModel('skilldeck-cli-delegation-', {
  'release-planner/SKILL.md':
    '---\nname: release-planner\ndescription: Plans a release and hands the steps to other skills.\n---\n# Release planner\n\nPlan, then call run_skill for each step.\n',
  'release-planner/skill.yaml': 'spec: { type: instruction }\n',
  // Claude Code's convention: the user may run it by name, a model may not pick it.
  'deploy-prod/SKILL.md':
    '---\nname: deploy-prod\ndescription: Deploys the app to production.\ndisable-model-invocation: true\n---\n# Deploy\n',
  'deploy-prod/skill.yaml': 'spec: { type: script, entrypoint: scripts/deploy.py }\n',
  'deploy-prod/scripts/deploy.py': 'print("DEPLOYED TO PROD")\n',
  'changelog/SKILL.md':
    '---\nname: changelog\ndescription: Writes the changelog entry for a release.\n---\n# Changelog\n',
  'changelog/skill.yaml': 'spec: { type: script, entrypoint: scripts/log.py }\n',
  'changelog/scripts/log.py': 'print("CHANGELOG WRITTEN")\n',
});

async function chat(message: string): Promise<ChatTurn> {
  const { stdout, stderr } = await cli.run(['chat', message, '--json', '--approve']);
  expect(stderr).toBe('');
  return ChatTurn.parse(JSON.parse(stdout));
}

describe('skilldeck chat: run_skill from a skill’s model', () => {
  it('never runs a skill that asks not to be picked by a model; another runs', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'run_skill', arguments: { skill: 'deploy-prod', task: 'deploy v2 to production' } },
          { name: 'run_skill', arguments: { skill: 'changelog', task: 'changelog for v2' } },
        ],
      },
      { text: 'Planned.' },
    );
    const turn = await chat('$release-planner plan the v2 release');
    expect(turn).toMatchObject({ status: 'success', answer: 'Planned.' });
    const calls = turn.steps.filter((s) => s.kind === 'tool' && s.name === 'run_skill');
    expect(calls.map((s) => s.status)).toEqual(['refused', 'success']);
    expect(calls[0].error).toBe(
      'Refused: deploy-prod runs only when the user asks for it by name (it is marked disable-model-invocation, set never to be picked, or turned off); tell the user to run it.',
    );
    expect(calls[1].output).toBe('CHANGELOG WRITTEN\n');
    // Nothing of deploy-prod ran or asked: no approval, no run, no output anywhere.
    expect(JSON.stringify(turn)).not.toContain('DEPLOYED');
    const approvals = turn.steps.filter((s) => s.kind === 'approval');
    expect(approvals.map((s) => s.name)).toEqual(['changelog']);
    // Allowed is no error: the step carries no `error` ("--approve" read as one before).
    expect(approvals[0].status).toBe('allowed');
    expect(approvals[0]).not.toHaveProperty('error');
    const request = cli.server.chatRequests()[first + 1];
    const results = request.messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(messageText(m)) as Record<string, unknown>);
    expect(results[0]).toMatchObject({ skill: 'deploy-prod', status: 'refused', error: calls[0].error });
  }, 40_000);
});

describe('skilldeck chat: run_skill from plain chat', () => {
  it('names the skill it will not run, installed or not, and runs nothing', async () => {
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'run_skill', arguments: { skill: 'deploy-prod', task: 'ship it' } },
          { name: 'run_skill', arguments: { skill: 'pdf-maker', task: 'make a pdf' } },
        ],
      },
      { text: 'I cannot do that myself.' },
    );
    const turn = await chat('hello, could you ship it and make me a pdf?');
    expect(turn.route.plan.primary).toBeNull();
    const errors = turn.steps.filter((s) => s.kind === 'tool').map((s) => s.error);
    expect(errors).toEqual([
      expect.stringMatching(
        /^There is no skill "deploy-prod" you may run here \(it is not installed, or the user runs it only by name\)\. run_skill takes \{ skill, task \} with one of: .*changelog/,
      ),
      expect.stringMatching(/^There is no skill "pdf-maker" you may run here /),
    ]);
    expect(JSON.stringify(turn)).not.toContain('DEPLOYED');
    expect(turn.steps.some((s) => s.kind === 'run' || s.kind === 'approval')).toBe(false);
  }, 40_000);
});
