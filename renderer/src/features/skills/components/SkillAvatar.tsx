import type { CSSProperties } from 'react';
import type { SkillSummary } from '../../../../../shared/contract';
import { displayName } from '../search';

/** A stable hue per skill name, so a skill keeps its color everywhere. */
function hue(name: string): number {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
  return Math.abs(hash) % 360;
}

interface SkillAvatarProps {
  skill: Pick<SkillSummary, 'name' | 'displayName' | 'emoji'>;
  size?: 'md' | 'lg';
}

export function SkillAvatar({ skill, size = 'md' }: SkillAvatarProps) {
  const emoji = skill.emoji?.trim();
  const initial =
    displayName(skill)
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .charAt(0)
      .toUpperCase() || '?';
  return (
    <span
      className={`avatar avatar--${size}${emoji ? ' avatar--emoji' : ''}`}
      style={{ '--hue': hue(skill.name) } as CSSProperties}
      aria-hidden="true"
    >
      {emoji || initial}
    </span>
  );
}
