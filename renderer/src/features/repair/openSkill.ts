import type { DetailTab } from '../skills/store';
import { useSkillsStore } from '../skills/store';

/** Opens a skill's tab in the Skills view: its Problems, or its Repairs (the revision history). */
export function openSkillTab(skillId: string, tab: DetailTab) {
  const skills = useSkillsStore.getState();
  skills.open(skillId);
  skills.setTab(tab);
  location.hash = '#skills';
}
