import type { SkillSource } from '../../../../../shared/contract';
import { Badge, type Tone } from '../../../ui/Badge';

const TONE: Record<SkillSource, Tone> = {
  bundled: 'accent',
  user: 'green',
  managed: 'blue',
  workspace: 'violet',
  extra: 'neutral',
};

export const SOURCE_HELP: Record<SkillSource, string> = {
  bundled: 'Bundled with SkillDeck',
  user: 'From your user folders (~/.claude/skills, ~/.agents/skills)',
  managed: 'Installed by SkillDeck ($SKILLDECK_HOME/skills)',
  workspace: "From this workspace's skills folders",
  extra: 'From an extra folder (--skills or settings)',
};

export function SourceBadge({ source }: { source: SkillSource }) {
  return (
    <Badge tone={TONE[source]} title={SOURCE_HELP[source]} testId="source-badge">
      {source}
    </Badge>
  );
}
