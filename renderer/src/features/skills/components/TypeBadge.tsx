import type { SkillType } from '../../../../../shared/contract';
import { Badge, type Tone } from '../../../ui/Badge';
import { BoltIcon, BookIcon, TerminalIcon } from '../../../ui/icons';

const TONE: Record<SkillType, Tone> = { instruction: 'neutral', script: 'teal', direct: 'orange' };

export const TYPE_HELP: Record<SkillType, string> = {
  instruction: 'Instruction: Markdown run through a model with tools',
  script: 'Script: runs an entrypoint or a file in scripts/',
  direct: 'Direct: returns its Markdown with placeholders filled in',
};

export function TypeIcon({ type, size = 12 }: { type: SkillType; size?: number }) {
  if (type === 'script') return <TerminalIcon size={size} />;
  if (type === 'direct') return <BoltIcon size={size} />;
  return <BookIcon size={size} />;
}

export function TypeBadge({ type }: { type: SkillType }) {
  return (
    <Badge
      tone={TONE[type]}
      variant="outline"
      icon={<TypeIcon type={type} />}
      title={TYPE_HELP[type]}
      testId="type-badge"
    >
      {type}
    </Badge>
  );
}
