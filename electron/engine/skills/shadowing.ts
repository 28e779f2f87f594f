import type { Problem, SkillSource } from '../../../shared/contract';
import { warning } from './problems';

export interface Shadowing {
  shadowedBy?: string;
  shadows: string[];
  problems: Problem[];
}

export interface ShadowInput {
  id: string;
  name: string;
  /** Position of the skill's root in `discoveryRoots()`: higher wins. */
  rootIndex: number;
  /** The discovery folder it was found in. */
  root: string;
  source: SkillSource;
}

/**
 * Same-named skills (DESIGN §2): the one in the highest-precedence root wins; within one
 * root the first in path order wins (`skills` must be in discovery order). Every hidden
 * one records `shadowedBy` and a warning, the winner records what it `shadows`.
 */
export function applyShadowing(skills: ShadowInput[]): Shadowing[] {
  const out: Shadowing[] = skills.map(() => ({ shadows: [], problems: [] }));
  const byName = new Map<string, number[]>();
  skills.forEach((s, i) => {
    const group = byName.get(s.name);
    if (group) group.push(i);
    else byName.set(s.name, [i]);
  });
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    // Discovery order is root order then path order, so the winner is the first of the last root.
    const lastRoot = Math.max(...group.map((i) => skills[i].rootIndex));
    const winner = group.find((i) => skills[i].rootIndex === lastRoot) as number;
    const w = skills[winner];
    for (const i of group) {
      if (i === winner) continue;
      const s = skills[i];
      // Two folders of one kind (.claude and .agents, two --skills): the later one wins.
      const why =
        s.rootIndex === w.rootIndex
          ? 'the first of the same name in this folder (path order) wins'
          : w.source === s.source
            ? `both are ${w.source} skills, and the folder searched later (${w.root}) takes precedence`
            : `${w.source} skills take precedence over ${s.source} ones`;
      out[i].shadowedBy = w.id;
      out[i].problems.push(
        warning('shadowed', `Shadowed by ${w.id}: ${why}. Rename one of them to use both.`, {
          field: 'name',
        }),
      );
      out[winner].shadows.push(s.id);
    }
  }
  return out;
}
