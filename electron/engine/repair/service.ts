import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type {
  RepairAssessment,
  RepairOutcome,
  RepairProposal,
  RepairRevision,
  RepairTransition,
  ReplayResult,
  RunResult,
} from '../../../shared/contract';
import { EngineError, forbidden, notFound } from '../errors';
import { numberHunks, renderDiff } from './diffs';
import { assessEligibility } from './eligibility';
import { gatherEvidence } from './evidence';
import { checkApplied, FRONTMATTER_FIXER, loadedReplay, proposeFrontmatterFix } from './frontmatterProposal';
import { budgetOf, checkContent, checkValidator } from './guards';
import { runRepairLoop, type RepairRequest } from './loop';
import { ProposalStore } from './proposalStore';
import type { Complete, PriorAttempt } from './prompt';
import { replayChanges, type Replay } from './replay';
import { RevisionStore } from './revisions';
import { hunkTexts, selectChanges, type Selection } from './selection';
import { contentHashOf, readSnapshot } from './snapshot';
import { TransitionLog } from './transitionLog';
import { failedAttemptOf, type RepairServiceDeps, type RunSource } from './serviceDeps';

export { failedAttemptOf, type RepairServiceDeps, type RunSource } from './serviceDeps';

/** How many repairs keep their replay closure for `revise` (each holds the run record). */
const MAX_LIVE_REPAIRS = 50;
/** How many runs keep their repair transitions for `repair.assess` (a reloaded window redraws them). */
const MAX_TRANSITION_RUNS = 200;

/** The repair loop as the engine facade offers it: start, review, apply / reject, history, undo. */
export class RepairService {
  readonly revisions: RevisionStore;
  private readonly store: ProposalStore;
  private readonly log: TransitionLog;
  /** How to replay each repair's failing case (kept in memory: a replay needs the live executor). */
  private readonly replays = new Map<string, { run: RunResult; replay: Replay }>();
  /** Repair transitions per failed run, in order (recent runs; all of them are on disk too). */
  private readonly transitions = new Map<string, RepairTransition[]>();

  constructor(private readonly deps: RepairServiceDeps) {
    const now = deps.now ?? (() => new Date());
    this.revisions = new RevisionStore(deps.home, now);
    this.store = new ProposalStore(deps.home);
    this.log = new TransitionLog(deps.home);
  }

  /**
   * Wires the executor and / or the model after construction: `createEngine` builds this
   * service before either exists, and the model changes when the user picks another provider.
   */
  connect(parts: { runs?: RunSource; complete?: Complete }): void {
    if (parts.runs) this.deps.runs = parts.runs;
    if (parts.complete) this.deps.complete = parts.complete;
  }

  /**
   * `repair.assess`: the eligibility verdict `repair.start` would reach first (same run, task
   * and input), without planning or replaying anything, and the transitions of its repairs so far.
   */
  async assess(runId: string): Promise<RepairAssessment> {
    const record = await this.deps.runs?.get(runId);
    if (!record?.result) throw notFound(`No finished run "${runId}".`);
    const result = failedAttemptOf(record.result);
    const skillDir = result.skill_id;
    if (!fs.existsSync(skillDir))
      throw notFound(`The skill that ran is gone (${skillDir}), so this run cannot be repaired.`);
    const eligibility = assessEligibility(result, await readSnapshot(skillDir), undefined, {
      task: record.summary.task,
      input: record.input,
    });
    return { run_id: runId, eligibility, transitions: [...this.transitionsOf(runId)] };
  }

  /** A run's repair transitions: this process's, else what an earlier one recorded. */
  private transitionsOf(runId: string): RepairTransition[] {
    const live = this.transitions.get(runId);
    if (live) return live;
    const recorded = this.log.read(runId);
    if (recorded.length > 0) this.remember(runId, recorded);
    return recorded;
  }

  private remember(runId: string, list: RepairTransition[]): void {
    this.transitions.set(runId, list);
    if (this.transitions.size > MAX_TRANSITION_RUNS)
      this.transitions.delete(this.transitions.keys().next().value ?? '');
  }

  /** Records a transition for `assess` (in memory and on disk) and announces it. */
  private note(t: RepairTransition): void {
    const list = this.transitionsOf(t.run_id);
    if (list.length === 0) this.remember(t.run_id, list);
    list.push(t);
    this.log.append(t);
    this.deps.events?.emit('repair.transition', t);
  }

  /** `repair.start`: repairs a finished failed run in the background; events report progress. */
  async start(runId: string): Promise<{ repair_id: string }> {
    const runs = this.deps.runs;
    if (!runs)
      throw new EngineError(
        'unavailable',
        'repair.start needs the executor to re-run the failing case, and it is not wired yet.',
      );
    const record = await runs.get(runId);
    if (!record?.result) throw notFound(`No finished run "${runId}".`);
    const result = failedAttemptOf(record.result);
    const repairId = `rep-${randomBytes(6).toString('hex')}`;
    void this.repair({
      run: result,
      skillDir: result.skill_id,
      task: record.summary.task,
      input: record.input,
      repairId,
      replay: (dir) => runs.replay(record, dir),
    }).catch((error: unknown) =>
      // A crash inside the loop still ends the timeline: the UI must not wait forever.
      this.note({
        repair_id: repairId,
        run_id: runId,
        seq: 1_000,
        state: 'fallback',
        skill: result.skill,
        at: new Date().toISOString(),
        detail: `The repair stopped: ${error instanceof Error ? error.message : String(error)}`,
        attempt: null,
      }),
    );
    return { repair_id: repairId };
  }

  /** Runs the loop on a failed run (CLI and tests call this directly), stores and announces proposals. */
  async repair(req: Omit<RepairRequest, 'prior' | 'bundled'> & { replay: Replay }): Promise<RepairOutcome> {
    const prior = await this.feedbackFor(req.skillDir, req.run);
    const outcome = await runRepairLoop(
      { ...req, prior: prior.attempts, skipFixers: prior.fixers, bundled: this.isReadOnly(req.skillDir) },
      {
        replay: req.replay,
        complete: this.deps.complete,
        now: this.deps.now,
        scratchRoot: this.deps.scratchRoot,
        onTransition: (t) => this.note(t),
      },
    );
    this.replays.set(outcome.repair_id, { run: req.run, replay: req.replay });
    // Only recent repairs can be re-replayed: the oldest closures go first.
    if (this.replays.size > MAX_LIVE_REPAIRS) this.replays.delete(this.replays.keys().next().value ?? '');
    for (const p of outcome.proposals) {
      this.store.save(p);
      this.deps.events?.emit('repair.proposed', p);
    }
    return outcome;
  }

  /** `repair.proposals`: of one repair, or one skill (id or name), newest first, `stale` filled in. */
  async proposals(filter: { repair_id?: string; skill?: string }): Promise<RepairProposal[]> {
    const name = filter.skill ? this.nameOf(filter.skill) : undefined;
    const all = this.store
      .all()
      .filter(
        (p) =>
          (!filter.repair_id || p.repair_id === filter.repair_id) &&
          (!filter.skill || p.skill_id === filter.skill || p.skill === name),
      );
    const hashes = new Map<string, string>();
    for (const p of all) {
      if (!hashes.has(p.skill_id)) hashes.set(p.skill_id, await contentHashOf(p.skill_id));
      p.stale = p.status === 'pending' && hashes.get(p.skill_id) !== p.content_hash;
    }
    return all.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  }

  /** `repair.revise`: a subset of hunks and / or edited texts as a new proposal, re-validated and re-replayed. */
  async revise(id: string, selection: Selection): Promise<RepairProposal> {
    const old = this.store.load(id);
    const live = this.replays.get(old.repair_id);
    const byLoading = old.fixer === FRONTMATTER_FIXER;
    if (!live && !byLoading)
      throw new EngineError(
        'unavailable',
        'Re-replaying needs the executor that ran this repair, and it is not available now.',
      );
    const skill = await readSnapshot(old.skill_id);
    if (skill.contentHash !== old.content_hash)
      throw forbidden('This proposal is stale: the skill changed since it was made.');
    const changes = selectChanges(old, skill, selection);
    const refusal = checkContent(skill, changes);
    if (refusal) throw forbidden(refusal.reason);
    let replay: ReplayResult;
    if (byLoading || !live) replay = await loadedReplay(skill, changes);
    else {
      const before = assessEligibility(live.run, skill);
      const replayed = await replayChanges({
        skill,
        changes,
        before,
        expect:
          old.fixer === 'prerequisite'
            ? { kind: 'unavailable', names: gatherEvidence(live.run, skill).envVars }
            : { kind: 'pass' },
        replay: live.replay,
        scratchRoot: this.deps.scratchRoot,
        precheck: async (dir) => (await checkValidator(skill.dir, dir))?.reason ?? null,
      });
      if ('refused' in replayed) throw forbidden(replayed.refused);
      replay = replayed.result;
    }
    const next: RepairProposal = {
      ...old,
      id: `prop-${randomBytes(6).toString('hex')}`,
      source: selection.edited?.length ? 'user' : old.source,
      patched_files: changes.map((c) => c.path),
      diff: renderDiff(changes),
      files: changes.map((c) => ({ path: c.path, before: c.before, after: c.after })),
      hunks: numberHunks(changes),
      budget: budgetOf(skill, changes),
      replay,
      created_at: (this.deps.now?.() ?? new Date()).toISOString(),
      status: 'pending',
      stale: false,
    };
    this.store.save({ ...old, status: 'superseded' });
    this.store.save(next);
    this.deps.events?.emit('repair.proposed', next);
    return next;
  }

  /** `repair.apply`: the accepted hunks (and edits) as a new revision; stale or unsafe selections are refused. */
  async apply(id: string, selection: Selection = {}): Promise<RepairRevision> {
    const proposal = this.store.load(id);
    if (proposal.status !== 'pending')
      throw forbidden(`Proposal ${id} is ${proposal.status}; only a pending proposal can be applied.`);
    const skill = await readSnapshot(proposal.skill_id);
    if (skill.contentHash !== proposal.content_hash)
      throw forbidden(
        `This proposal is stale: ${proposal.skill} changed since it was made, so it was not applied. Run the repair again.`,
      );
    const changes = selectChanges(proposal, skill, selection);
    const refusal = checkContent(skill, changes);
    if (refusal) throw forbidden(refusal.reason);
    const invalid = await checkApplied(proposal, skill, changes, this.deps.scratchRoot);
    if (invalid) throw forbidden(invalid);
    const edited = !!selection.edited?.length;
    const copy = proposal.bundled || this.isReadOnly(proposal.skill_id);
    if (copy) this.refuseShadowedCopy(proposal.skill, proposal.skill_id);
    const revision = await this.revisions.apply({
      skill: proposal.skill,
      skillDir: proposal.skill_id,
      contentHash: proposal.content_hash,
      changes,
      bundled: copy,
      proposal: { ...proposal, source: edited ? 'user' : proposal.source },
    });
    this.store.save({ ...proposal, status: 'applied' });
    await this.deps.reload?.();
    this.deps.events?.emit('repair.applied', revision);
    return revision;
  }

  /**
   * `repair.reject`: marks it rejected; the reason, the hunks and the user's edits (as diffs from
   * the original) go into the next attempt for this failure.
   */
  reject(
    id: string,
    reason?: string,
    rejectedHunks?: number[],
    edited: { path: string; content: string }[] = [],
  ): RepairProposal {
    const proposal = this.store.load(id);
    if (proposal.status !== 'pending')
      throw forbidden(`Proposal ${id} is ${proposal.status}; only a pending proposal can be rejected.`);
    const userEdits = edited.map(({ path: file, content }) => {
      const patched = proposal.files.find((f) => f.path === file);
      if (!patched) throw forbidden(`${file} is not one of this proposal's files.`);
      return { path: file, diff: renderDiff([{ path: file, before: patched.before, after: content }]) };
    });
    const next: RepairProposal = {
      ...proposal,
      status: 'rejected',
      reject_reason: reason,
      rejected_hunks: rejectedHunks,
      ...(userEdits.length ? { user_edits: userEdits } : {}),
    };
    this.store.save(next);
    return next;
  }

  /** `repair.fixFrontmatter`: a proposal that makes a skill's SKILL.md load, reviewed and applied like any other (kept to apply). */
  async fixFrontmatter(skill: string, keep = true): Promise<RepairProposal> {
    const dir = this.deps.catalog?.list().skills.find((s) => s.id === skill || s.name === skill)?.id ?? skill;
    if (!path.isAbsolute(dir) || !fs.existsSync(dir)) throw notFound(`No skill "${skill}".`);
    const proposal = await proposeFrontmatterFix(dir, this.isReadOnly(dir), this.deps.now?.() ?? new Date());
    if (!keep) return proposal;
    // Fix… pressed again on the same unchanged file reopens the review it made, instead of
    // leaving one more pending proposal of the same edit behind each press.
    const same = this.store
      .all()
      .find(
        (p) =>
          p.status === 'pending' &&
          p.fixer === FRONTMATTER_FIXER &&
          p.source === 'fixer' &&
          p.skill_id === proposal.skill_id &&
          p.content_hash === proposal.content_hash &&
          p.diff === proposal.diff,
      );
    if (same) return same;
    this.store.save(proposal);
    this.deps.events?.emit('repair.proposed', proposal);
    return proposal;
  }

  /** `repair.history`: a skill's revisions (by id or name), newest first. */
  history(skill: string): RepairRevision[] {
    return this.revisions.history(this.nameOf(skill));
  }

  /** `repair.undo`: every file back byte for byte. */
  async undo(revision: string): Promise<RepairRevision> {
    const undone = await this.revisions.undo(revision);
    await this.deps.reload?.();
    this.deps.events?.emit('repair.undone', undone);
    return undone;
  }

  /** Rejected proposals of the same skill and failure: their diffs, reasons and hunks go into the prompt. */
  private async feedbackFor(
    skillDir: string,
    run: RunResult,
  ): Promise<{ attempts: PriorAttempt[]; fixers: string[] }> {
    const rejected = this.store
      .all()
      .filter((p) => p.skill_id === path.resolve(skillDir) && p.status === 'rejected');
    if (rejected.length === 0) return { attempts: [], fixers: [] };
    const signature = assessEligibility(run, await readSnapshot(skillDir)).error_signature;
    const mine = rejected
      .filter((p) => p.error_signature === signature)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    return {
      attempts: mine.slice(-2).map((p) => {
        const turnedDown = p.rejected_hunks ?? p.hunks.map((h) => h.index);
        return {
          diff: p.diff,
          userReason: p.reject_reason ?? 'rejected without a reason',
          rejectedHunks: hunkTexts(p, turnedDown),
          userEdits: p.user_edits?.map((e) => e.diff),
          keptHunks: hunkTexts(
            p,
            p.hunks.map((h) => h.index).filter((i) => !turnedDown.includes(i)),
          ),
        };
      }),
      fixers: mine.flatMap((p) => (p.fixer ? [p.fixer] : [])),
    };
  }

  private nameOf(skill: string): string {
    return (
      this.deps.catalog?.list().skills.find((s) => s.id === skill)?.name ??
      (path.isAbsolute(skill) ? path.basename(skill) : skill)
    );
  }

  /**
   * A read-only skill is repaired into a copy in $SKILLDECK_HOME/skills, which shadows bundled and
   * user skills; a workspace or --skills skill of the same name takes precedence over it (DESIGN
   * §2), so the copy would never run and every run would stay broken: refused, saying why.
   */
  private refuseShadowedCopy(skill: string, dir: string): void {
    const source = this.deps.catalog?.list().skills.find((s) => s.id === dir)?.source;
    if (source !== 'workspace' && source !== 'extra') return;
    throw forbidden(
      `${skill} is in ${dir}, which SkillDeck cannot write, and a repaired copy in ${this.revisions.managedRoot} would not be used: ${source === 'extra' ? 'skills from an added folder (--skills)' : 'workspace skills'} take precedence over it. Make the folder writable and apply again, or apply the diff by hand.`,
    );
  }

  /** Bundled per the catalog, or a folder this process cannot write: repaired into a managed copy. */
  private isReadOnly(dir: string): boolean {
    if (this.deps.catalog?.list().skills.find((s) => s.id === dir)?.source === 'bundled') return true;
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      return false;
    } catch {
      return true;
    }
  }
}
