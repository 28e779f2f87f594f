import type { RunRecord, RunSandbox, RunState, RunStatus, RunTransition } from '../../../shared/contract';

/**
 * A run's state-machine timeline (routing spec §10): every transition is timed, saved with
 * the run record (a crash keeps the timeline so far) and published as `run.transition`.
 */
export class Timeline {
  private lastAt = Date.now();
  /** Notes (allowed by a grant, fields left to fill) ride on the next transition. */
  private notes: string[] = [];

  constructor(
    private readonly record: RunRecord,
    private readonly persist: (record: RunRecord) => void,
    private readonly publish: (t: RunTransition) => void,
  ) {}

  note(text: string): void {
    this.notes.push(text);
  }

  emit(
    state: RunState,
    skill: string | null,
    text: string,
    tier?: RunSandbox,
    status?: RunStatus,
    script?: string,
  ): void {
    const now = Date.now();
    const t: RunTransition = {
      run_id: this.record.summary.run_id,
      seq: this.record.timeline.length,
      state,
      skill,
      at: new Date(now).toISOString(),
      detail: this.notes.length ? `${text} (${this.notes.join('; ')})` : text,
      duration_ms: now - this.lastAt,
    };
    if (tier) t.sandbox = tier;
    if (status) t.status = status;
    if (script) t.script = script;
    this.notes = [];
    this.lastAt = now;
    this.record.timeline.push(t);
    this.persist(this.record);
    this.publish(t);
  }
}
