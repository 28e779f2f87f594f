import { memo, type CSSProperties } from 'react';
import { LayersOffIcon, ShieldIcon } from '../../../../ui/icons';
import { displayName, type IndexedSkill } from '../../search';
import { ProblemIndicator } from '../ProblemIndicator';
import { SkillAvatar } from '../SkillAvatar';
import { SourceBadge } from '../SourceBadge';
import { TypeBadge } from '../TypeBadge';

interface SkillRowProps {
  item: IndexedSkill;
  index: number;
  selected: boolean;
  style: CSSProperties;
  onSelect: (id: string) => void;
}

export const SkillRow = memo(function SkillRow({ item, index, selected, style, onSelect }: SkillRowProps) {
  const { skill, errors, warnings } = item;
  return (
    <div
      id={`skill-option-${index}`}
      role="option"
      aria-selected={selected}
      className={`skill-row${selected ? ' is-selected' : ''}${skill.routable && skill.enabled !== false && skill.workspaceEnabled !== false ? '' : ' is-unroutable'}`}
      style={style}
      data-testid="skill-row"
      data-skill-name={skill.name}
      data-skill-id={skill.id}
      onClick={() => onSelect(skill.id)}
    >
      <SkillAvatar skill={skill} />
      <div className="skill-row__main">
        <div className="skill-row__top">
          <span className="skill-row__name">{displayName(skill)}</span>
          {skill.shadowedBy && (
            <span
              className="skill-row__shadowed"
              data-testid="shadowed-marker"
              title="Hidden by a same-named skill of higher precedence"
            >
              <LayersOffIcon size={12} />
              <span className="skill-row__marker-label">shadowed</span>
            </span>
          )}
          {skill.flagged && (
            <span
              className="skill-row__shadowed skill-row__flagged"
              data-testid="flagged-marker"
              title={`Its instructions ask for something harmful (${skill.flagged.file} line ${skill.flagged.line}): held back from automatic selection`}
            >
              <ShieldIcon size={12} />
              <span className="skill-row__marker-label">flagged</span>
            </span>
          )}
          {skill.untrusted && (
            <span
              className="skill-row__shadowed skill-row__untrusted"
              data-testid="untrusted-marker"
              title={
                skill.shadows.length > 0
                  ? 'From this folder, which you have not trusted: it asks before every run, and it takes the place of a skill of yours with the same name'
                  : 'From this folder, which you have not trusted: it asks before every run'
              }
            >
              <ShieldIcon size={12} />
              {/* Always spelled out, however narrow the list: it is why the skill asks. */}
              <span className="skill-row__untrusted-label">
                {skill.shadows.length > 0 ? 'untrusted · replaces yours' : 'untrusted'}
              </span>
            </span>
          )}
          {skill.workspaceEnabled === false && skill.enabled !== false && (
            <span
              className="skill-row__shadowed"
              data-testid="workspace-off-marker"
              title="Turned off in this workspace: the router skips it here"
            >
              off here
            </span>
          )}
          {skill.enabled === false && (
            <span
              className="skill-row__shadowed"
              data-testid="disabled-marker"
              title="Turned off: nothing uses it"
            >
              off
            </span>
          )}
          <span className="skill-row__badges">
            <ProblemIndicator errors={errors} warnings={warnings} />
            <SourceBadge source={skill.source} />
            <TypeBadge type={skill.type} />
          </span>
        </div>
        <div className="skill-row__desc">{skill.description || <em>No description</em>}</div>
      </div>
    </div>
  );
});
