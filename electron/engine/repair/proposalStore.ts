import fs from 'node:fs';
import path from 'node:path';
import { RepairProposal } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { notFound } from '../errors';

const PROPOSAL_ID = /^prop-[0-9a-f]{6,32}$/;

/**
 * Proposals awaiting review, one JSON file each under `$SKILLDECK_HOME/repairs/_proposals/`
 * (`_` never appears in a skill key, so this cannot collide with a skill's revisions).
 * They outlive the process: apply, reject and history work without the executor.
 */
export class ProposalStore {
  readonly dir: string;

  constructor(home: string) {
    this.dir = path.join(home, 'repairs', '_proposals');
  }

  save(p: RepairProposal): void {
    writeFileAtomicSync(path.join(this.dir, `${p.id}.json`), JSON.stringify(p, null, 2));
  }

  /** One proposal; `not_found` for an unknown or malformed id. */
  load(id: string): RepairProposal {
    const found = PROPOSAL_ID.test(id) ? this.read(path.join(this.dir, `${id}.json`)) : undefined;
    if (!found) throw notFound(`No proposal "${id.slice(0, 100)}"; list the proposals to get valid ids.`);
    return found;
  }

  /** Every readable proposal (unreadable files are skipped, never fatal). */
  all(): RepairProposal[] {
    const names = fs.existsSync(this.dir) ? fs.readdirSync(this.dir) : [];
    return names.flatMap((n) => (n.endsWith('.json') ? (this.read(path.join(this.dir, n)) ?? []) : []));
  }

  private read(file: string): RepairProposal | undefined {
    try {
      const parsed = RepairProposal.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
