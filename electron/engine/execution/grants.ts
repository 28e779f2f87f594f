import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ApprovalGrant } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { withFileLock } from '../fileLock';

const GrantsFile = z.object({ version: z.literal(1), grants: z.array(ApprovalGrant) });

/** At most this many grants per skill folder (one per folder its {workspace} paths were allowed in). */
const PER_SKILL = 8;

/**
 * "Always allow" answers (`$SKILLDECK_HOME/approvals.json`), per skill folder, each bound
 * to the skill's content hash and permissions digest (DESIGN §4): an edited or widened
 * skill matches no grant and asks again. Written atomically; revocable in Settings.
 */
export class GrantStore {
  private grants: ApprovalGrant[] = [];

  constructor(readonly file: string) {
    this.load();
  }

  /**
   * The grants as on disk now: another process (the app, a CLI asking at a terminal) may have
   * revoked or stored one since this one started.
   */
  private load(): void {
    try {
      const parsed = GrantsFile.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      this.grants = parsed.success ? parsed.data.grants : [];
    } catch {
      // Missing or unreadable: no grants, so everything asks (the safe direction).
      this.grants = [];
    }
  }

  /** Read, change and write under the file's lock, so no process writes back a revoked grant. */
  private update(change: () => boolean): boolean {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    return withFileLock(`${this.file}.lock`, () => {
      this.load();
      const changed = change();
      if (changed) this.save();
      return changed;
    });
  }

  static at(home: string): GrantStore {
    return new GrantStore(path.join(home, 'approvals.json'));
  }

  /** The newest grant of each skill folder (what Settings lists and revokes). */
  list(): ApprovalGrant[] {
    this.load();
    const newest = new Map(this.grants.map((g) => [`${g.skill}\0${g.skill_id}`, g]));
    return [...newest.values()].map((g) => ({ ...g }));
  }

  /**
   * The grant that still holds for this skill folder, its exact content and declared permissions.
   * A same-named skill elsewhere (one shadowing it from a cloned project) is another skill: what
   * its declared paths reach around its folder is not what the user allowed.
   */
  match(skill: string, skillId: string, contentHash: string, digest: string): ApprovalGrant | undefined {
    this.load();
    return this.grants.find(
      (g) =>
        g.skill === skill &&
        g.skill_id === skillId &&
        g.content_hash === contentHash &&
        g.permissions_digest === digest,
    );
  }

  /** Any grant for the skill's name, whatever its hash (for the extra paths widened earlier). */
  forSkill(skill: string): ApprovalGrant | undefined {
    this.load();
    return this.grants.findLast((g) => g.skill === skill);
  }

  /**
   * Store the grant of this skill folder; a same-named skill elsewhere keeps its own. Its grants
   * for other declared permissions of the same content stay (a {workspace} path binds the folder
   * answered in, so a user working in two projects is asked once in each); those of an older
   * content go, since they can match no more.
   */
  put(grant: ApprovalGrant): void {
    const same = (g: ApprovalGrant) => g.skill === grant.skill && g.skill_id === grant.skill_id;
    this.update(() => {
      const others = this.grants.filter(
        (g) =>
          same(g) &&
          g.content_hash === grant.content_hash &&
          g.permissions_digest !== grant.permissions_digest,
      );
      this.grants = [...this.grants.filter((g) => !same(g)), ...others.slice(-(PER_SKILL - 1)), grant];
      return true;
    });
  }

  /** Remove the skill's grant; true when there was one. */
  revoke(skill: string): boolean {
    return this.update(() => {
      const before = this.grants.length;
      this.grants = this.grants.filter((g) => g.skill !== skill);
      return this.grants.length !== before;
    });
  }

  private save(): void {
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, grants: this.grants }, null, 2)}\n`);
  }
}
