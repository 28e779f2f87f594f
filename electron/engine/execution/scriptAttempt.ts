import fs from 'node:fs';
import path from 'node:path';
import type { SkillDetail } from '../../../shared/contract';
import { capabilitySummary } from '../install/capabilities';
import { grantHashNow } from '../skills/fingerprint';
import { untrustedReason } from '../workspace/untrusted';
import type { ApprovalAsk } from './approvals';
import { quote, shown } from './askText';
import type { AttemptEnv, AttemptResult } from './attempt';
import { classifyRun } from './classify';
import { writtenElsewhere } from './declaredWrites';
import type { ScriptChoice } from './entrypoints';
import { confine } from './entrypoints';
import {
  credentialDirs,
  credentialFiles,
  permissionsDigest,
  resolvePolicy,
  type ExecutionPolicy,
} from './policy';
import { resolveInterpreter, selectBackend } from './sandbox';
import { isInside, isSystemFolder } from './sandbox/layout';
import { buildRunEnv, cleanRunTmp, listRunFiles, makeRunDirs, stampRunFiles, writtenSince } from './workdir';

/** Extra grants for one run: the "allow this for this skill?" answer after a blocked run. */
export interface Widening {
  kind: 'write' | 'read' | 'network';
  target: string;
}

export interface ScriptRequest {
  skill: SkillDetail;
  script: ScriptChoice;
  /** Extra argv after the entrypoint's own (the model's `run_skill_script` args). */
  args: string[];
  input: Record<string, unknown>;
  runId: string;
  widen?: Widening;
}

const real = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * Whether `target` lies in the skill's folder, which the sandbox keeps read-only for its runs
 * (layout.ts). Where its links lead: the sandbox binds a link in the folder (`cache` → ~/Documents)
 * at its target, writable, so such a grant is no grant of its own folder.
 */
const inOwnFolder = (target: string, skillDir: string): boolean => isInside(real(target), real(skillDir));

/**
 * Whether `target` lies in $SKILLDECK_HOME (as written or where its links lead) outside this run's
 * own folder: grants, secrets, settings, other runs' records. A skill that could write there
 * could forge an "always allow" in approvals.json.
 */
const inOwnData = (target: string, home: string, work: string): boolean =>
  [path.resolve(target), real(target)].some(
    (t) => [home, real(home)].some((h) => isInside(t, h)) && ![work, real(work)].some((w) => isInside(t, w)),
  );

/**
 * Characters no path needs and a question cannot show honestly: controls (a carriage return
 * redraws the line) and bidi overrides and isolates (`~/docs<U+202E>/hss.` shows as `~/docs/.ssh`).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Linux's cap on one argument or environment string (MAX_ARG_STRLEN, 32 pages), its NUL included. */
const MAX_ARG_STRLEN = 32 * 4096;

/**
 * Why the command cannot be started with these strings, or null. Past the cap execve fails with
 * E2BIG, which bwrap reports as its own failure ("could not start the sandbox: … Argument list
 * too long"): a task of 130 KiB of pasted CSV, or a model's large `input`, failed that way.
 */
function overLong(env: Record<string, string>, args: string[]): string | null {
  if (process.platform !== 'linux') return null;
  const size = (s: string) => Buffer.byteLength(s) + 1;
  const kib = (n: number) => `${Math.ceil(n / 1024)} KiB`;
  for (const [name, value] of Object.entries(env))
    if (size(`${name}=${value}`) > MAX_ARG_STRLEN)
      return name === 'INPUT_JSON'
        ? `the task and input take ${kib(size(value))} as INPUT_JSON, and Linux passes at most 128 KiB in one environment variable; save the data in a file the skill can read and give its path instead`
        : `the environment variable ${name} holds ${kib(size(value))}, and Linux passes at most 128 KiB in one`;
  const long = args.find((a) => size(a) > MAX_ARG_STRLEN);
  return long === undefined
    ? null
    : `one argument holds ${kib(size(long))}, and Linux passes at most 128 KiB in one; save it in a file and pass its path instead`;
}

/** The policy with the grants added by an earlier "always allow this" and this run's widening. */
function widened(
  policy: ExecutionPolicy,
  extra: { read: string[]; write: string[]; network: string[] },
  w?: Widening,
): ExecutionPolicy {
  const read = [...policy.read, ...extra.read.map((p) => ({ declared: p, abs: p }))];
  const write = [...policy.write, ...extra.write.map((p) => ({ declared: p, abs: p }))];
  let network = policy.network;
  const hosts = [...extra.network, ...(w?.kind === 'network' ? [w.target] : [])];
  if (hosts.length && network !== true) network = [...new Set([...(network || []), ...hosts])];
  if (w?.kind === 'read') read.push({ declared: w.target, abs: w.target });
  if (w?.kind === 'write') write.push({ declared: w.target, abs: w.target });
  return { ...policy, read, write, network };
}

/**
 * Run one script of a skill: resolve its policy, ask for approval when the policy or the
 * sandbox tier calls for it, run it in the strongest sandbox the machine has, and tell
 * exactly what happened (DESIGN §4). Never throws.
 */
export async function runScript(req: ScriptRequest, env: AttemptEnv): Promise<AttemptResult> {
  const started = Date.now();
  const { skill, script } = req;
  const m = skill.metadata;
  const dirs = makeRunDirs(env.home, req.runId);
  const base = resolvePolicy(m, {
    workDir: dirs.work,
    skillDir: skill.path,
    workspace: env.workspace,
    home: env.userHome,
    private: [env.home, ...env.skillRoots],
    env: env.hostEnv,
  });
  const digest = permissionsDigest(base);
  // The content hash skips node_modules and .git, yet a script can load code from there. Their
  // stats cost a few ms per thousand files: paid only when a grant is stored or asked for.
  let bound: Promise<string> | undefined;
  // Read from disk now, not taken from the detail: an instruction skill's detail is as old as its turn.
  const contentHash = () => (bound ??= grantHashNow(skill.path));
  // Paths widened by an earlier "always allow" count only while that grant still holds.
  const stored = env.grants.forSkill(m.name)
    ? env.grants.match(m.name, skill.id, await contentHash(), digest)
    : undefined;
  const policy = widened(base, stored?.extra ?? { read: [], write: [], network: [] }, req.widen);
  const fail = (
    status: AttemptResult['status'],
    error: string,
    sandbox: AttemptResult['sandbox'] = 'none',
  ): AttemptResult => ({
    ...emptyAttempt(sandbox, Date.now() - started),
    status,
    outcome: 'fatal',
    error,
  });

  if (policy.approval === 'deny')
    return fail('denied', `${m.name} has approval: deny in its execution policy, so it never runs.`);
  // Asking would be a lie: the sandbox keeps the folder read-only whatever the answer.
  if (req.widen?.kind === 'write' && inOwnFolder(req.widen.target, skill.path))
    return fail(
      'denied',
      `${m.name} cannot be allowed to write ${req.widen.target}: a skill's own folder stays read-only while it runs, so that it cannot change its own instructions, permissions or code.`,
    );
  // Never writable, whoever approves: refused before anyone is asked, as its own folder is.
  const data = policy.write.find((g) => inOwnData(g.abs, env.home, dirs.work));
  if (data)
    return fail(
      'denied',
      `${m.name} cannot be given write access to ${data.declared === data.abs ? data.abs : `${data.declared} (${data.abs})`}: that is SkillDeck's own data (settings, approvals, secrets, run records), which no skill may change, so that it cannot grant itself permissions; have it write to its run folder or a folder outside SkillDeck's.`,
    );
  const disguised = [...base.read, ...base.write].find((g) => UNSEEN.test(g.declared));
  if (disguised)
    return fail(
      'denied',
      `${m.name} declares the path ${JSON.stringify(disguised.declared)}, with control or text-direction characters that would show it as something else when you are asked; fix the path in its skill.yaml.`,
    );
  const file = confine(skill.path, script.path);
  if ('error' in file) return fail('failure', `Cannot run ${script.path}: ${file.error}.`);
  if (!fs.existsSync(file.abs)) return fail('failure', `${m.name}'s script ${script.path} does not exist.`);
  const interp = resolveInterpreter(file.abs, { env: env.hostEnv, skillDir: skill.path });
  if (!interp.ok) return fail('failure', `Cannot run ${script.path}: ${interp.error}.`);

  // $SKILLDECK_HOME holds grants, secrets and other runs: hidden even when it is outside the
  // home. So are the other skills (their files, tokens, configs): only this one is bound back.
  // And the home's keys and credentials (~/.ssh, ~/.aws, ~/.netrc …), under a grant of the whole home too.
  // The read-only root shows every folder no mask hides: a workspace outside the home (/srv/app,
  // /workspaces/repo) is the user's data too, and so are the projects beside it under the same
  // top folder (/srv, /work), hidden unless a declared path around or in them shows them. Under a
  // system folder (/opt/app, /var/www/site) only the workspace itself.
  const ws = path.resolve(env.workspace);
  const top = path.join('/', ws.split(path.sep)[1] ?? '');
  const userData = top === '/' || isSystemFolder(top) ? ws : top;
  const granted = [...policy.read, ...policy.write].some((g) => isInside(userData, g.abs));
  const { backend, downgrade } = selectBackend(policy.sandbox, {
    home: env.userHome,
    conceal: granted ? [] : [userData],
    hide: [env.home, ...env.skillRoots, ...credentialDirs(env.userHome)],
    absentSkillFolders: env.absentSkillRoots,
    hideFiles: credentialFiles(env.userHome),
    ledger: path.join(env.home, 'stand-ins'),
  });
  const command = [interp.command, ...interp.args, ...script.args, ...req.args];
  const runEnv = buildRunEnv({
    hostEnv: env.hostEnv,
    allow: policy.envAllow,
    home: env.userHome,
    dirs,
    skillName: m.name,
    skillDir: skill.path,
    workspace: env.workspace,
    input: req.input,
    timeoutMs: policy.timeoutMs,
  });
  Object.assign(runEnv, interp.env);
  const tooLong = overLong(runEnv, [...script.args, ...req.args]);
  if (tooLong) return fail('failure', `Cannot run ${script.path}: ${tooLong}.`);

  const reasons = [...policy.reasons];
  // A folder's own skills came with the folder (a cloned repository), not from the user: until
  // the folder is trusted their `approval: auto` counts as `ask` (what-users-ask §14).
  const untrusted = skill.source === 'workspace' ? env.untrustedWorkspace : undefined;
  if (policy.approval === 'ask') reasons.push(`${m.name} asks for approval before it runs a command`);
  if (untrusted) reasons.push(untrustedReason(skill, policy.approval, untrusted));
  // DESIGN §4: never a silent downgrade; the user is told before the run and must approve.
  if (downgrade) reasons.push(downgrade);
  else if (backend.unenforced.length)
    reasons.push(`the ${backend.tier} sandbox cannot enforce all of its rules here`);
  if (policy.sandbox === 'none') reasons.push('it asks to run without a sandbox');
  if (req.widen) reasons.push(`it asks for more than it declares: ${req.widen.kind} ${req.widen.target}`);

  if (reasons.length > 0) {
    const denied = await seekApproval({
      req,
      env,
      digest,
      stored: stored?.extra,
      ask: {
        run_id: req.runId,
        skill: m.name,
        skill_id: skill.id,
        version: m.version ?? null,
        content_hash: await contentHash(),
        command,
        command_line: command.map(quote).join(' '),
        cwd: dirs.work,
        reads: [`${skill.path} (the skill, read-only)`, ...shown(policy.read)],
        writes: [
          `${dirs.work} (this run's folder)`,
          ...shown(policy.write).map((line, i) =>
            inOwnFolder(policy.write[i].abs, skill.path)
              ? `${line} (inside the skill's own folder: stays read-only)`
              : line,
          ),
        ],
        // What the run can reach: without an OS sandbox nothing holds it to its declaration.
        network: backend.tier === 'process' || backend.tier === 'none' ? true : policy.network,
        env: Object.keys(runEnv).sort(),
        sandbox: backend.tier,
        unenforced: backend.unenforced,
        summary: capabilitySummary(
          m,
          skill.files.filter((f) => f.kind === 'file'),
        ),
        reasons,
        ...(req.widen ? { widen: { ...req.widen, grant: req.widen.target } } : {}),
        ...(untrusted ? { untrusted_workspace: untrusted } : {}),
      },
    });
    // The run view still shows what would have run, and where.
    if (denied) return { ...fail('denied', denied, backend.tier), command, cwd: dirs.work };
  }

  env.running(backend.tier, script.path);
  const before = stampRunFiles(dirs);
  // A file system's clock may lag the wall clock by a tick.
  const since = Date.now() - 10;
  const result = await backend.run({
    command: interp.command,
    args: [...interp.args, ...script.args, ...req.args],
    cwd: dirs.work,
    skillDir: skill.path,
    grants: {
      read: [...policy.read.map((g) => g.abs), ...interp.readPrefixes],
      write: policy.write.map((g) => g.abs),
      network: policy.network,
      env: runEnv,
      declared: { read: policy.read.map((g) => g.declared), write: policy.write.map((g) => g.declared) },
    },
    timeoutMs: policy.timeoutMs,
    maxOutputBytes: env.maxOutputBytes,
    signal: env.signal,
    onOutput: env.onOutput,
  });
  cleanRunTmp(dirs);
  const verdict = classifyRun(result);
  // What it wrote in the user's folders: not SkillDeck's data (its run folder is listed below), a
  // skill's, or the credentials the sandbox hides (the user's own tools change those).
  const elsewhere = writtenElsewhere(policy.write, since, [
    ...[env.home, ...env.skillRoots, skill.path],
    ...[...credentialDirs(env.userHome), ...credentialFiles(env.userHome)],
  ]);
  // Whole milliseconds, as a run's own duration_ms (the sandbox measures tenths, for the bench).
  const took = Math.round(result.durationMs);
  env.ran?.({
    skill: m.name,
    script: script.path,
    command,
    sandbox: result.tier,
    status: verdict.status,
    exit_code: result.exitCode,
    duration_ms: took,
    files: [...writtenSince(dirs, before), ...elsewhere.files],
  });
  return {
    status: verdict.status,
    outcome: verdict.outcome,
    output: result.stdout,
    error: verdict.error,
    exit_code: result.exitCode,
    sandbox: result.tier,
    command,
    cwd: dirs.work,
    stderr: result.stderr,
    truncated: result.truncated,
    files: [...listRunFiles(dirs), ...elsewhere.files],
    violations: [...result.violations, ...elsewhere.violations],
    duration_ms: took,
  };
}

export function emptyAttempt(sandbox: AttemptResult['sandbox'], durationMs: number): AttemptResult {
  return {
    status: 'success',
    outcome: 'success',
    output: '',
    error: null,
    exit_code: null,
    sandbox,
    command: [],
    cwd: null,
    stderr: '',
    truncated: false,
    files: [],
    violations: [],
    duration_ms: durationMs,
  };
}

type Extra = { read: string[]; write: string[]; network: string[] };

/**
 * Ask for approval unless a stored "always allow" still holds (same content hash and
 * declared permissions; never for a widening). Stores a new grant on "always". Returns
 * the denial message, or undefined when the run may go ahead.
 */
async function seekApproval(o: {
  req: ScriptRequest;
  env: AttemptEnv;
  ask: ApprovalAsk;
  digest: string;
  stored: Extra | undefined;
}): Promise<string | undefined> {
  const { req, env, ask } = o;
  const name = ask.skill;
  const grant = req.widen ? undefined : env.grants.match(name, ask.skill_id, ask.content_hash, o.digest);
  if (grant) {
    env.note(`allowed by your "always allow" for ${name} (granted ${grant.granted_at.slice(0, 10)})`);
    return undefined;
  }
  const answer = await env.approve(ask);
  if (answer.decision === 'deny')
    return `Denied: ${name} did not run${answer.reason ? ` (${answer.reason})` : ''}.`;
  // The answer is for the version shown, and a question may wait minutes: code edited meanwhile
  // was never shown to anyone, so it neither runs nor gets an "always allow".
  if ((await grantHashNow(req.skill.path)) !== ask.content_hash)
    return `Denied: ${name} changed while it waited for your approval, so nothing ran; run it again to be asked about the version now on disk.`;
  if (answer.decision === 'allow_always') {
    const previous = o.stored ?? { read: [], write: [], network: [] };
    const extra = { ...previous };
    if (req.widen) extra[req.widen.kind] = [...new Set([...previous[req.widen.kind], req.widen.target])];
    env.grants.put({
      skill: name,
      skill_id: ask.skill_id,
      content_hash: ask.content_hash,
      permissions_digest: o.digest,
      summary: ask.summary,
      granted_at: new Date().toISOString(),
      extra,
    });
    env.grantsChanged();
  }
  return undefined;
}

/**
 * The grant that lets a blocked path through: an existing file or folder itself; for a
 * file that does not exist yet, the folder it would be written in (a bind needs a target).
 */
export function grantFor(widen: Widening): Widening {
  if (widen.kind === 'network' || !path.isAbsolute(widen.target)) return widen;
  const target = path.resolve(widen.target);
  return fs.existsSync(target) ? { ...widen, target } : { ...widen, target: path.dirname(target) };
}
