import type { SkillSummary } from '../../../../../../shared/contract';
import { Badge } from '../../../../ui/Badge';
import { TruncatedPath } from '../../../../ui/TruncatedPath';
import { ErrorIcon, PlayIcon, RouteIcon, ShieldIcon } from '../../../../ui/icons';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../../lib/format';
import { switchesOf } from '../../manage';
import { displayName } from '../../search';
import { useSkillsStore } from '../../store';
import { ProblemIndicator } from '../ProblemIndicator';
import { SkillAvatar } from '../SkillAvatar';
import { SourceBadge } from '../SourceBadge';
import { TypeBadge } from '../TypeBadge';
import { RemoveButton } from './RemoveButton';
import { ShadowLinks } from './ShadowLinks';

function unroutableReason(summary: SkillSummary): string {
  if (summary.problems.some((p) => p.severity === 'error')) return 'An error keeps this skill out of routing';
  if (summary.shadowedBy) return 'A same-named skill of higher precedence hides this one';
  return 'Its os field excludes this platform';
}

/** `dangers`: danger findings of its instructions, once the detail has loaded (shown on every tab). */
export function DetailHeader({ summary, dangers = 0 }: { summary: SkillSummary; dangers?: number }) {
  const setTab = useSkillsStore((s) => s.setTab);
  const switches = useSkillsStore(useShallow((s) => switchesOf(s, summary)));
  const shown = displayName(summary);
  const errors = summary.problems.filter((p) => p.severity === 'error').length;
  const warnings = summary.problems.length - errors;

  return (
    <header className="detail-header">
      <div className="detail-header__title-row">
        <SkillAvatar skill={summary} size="lg" />
        <div className="detail-header__titles">
          <div className="detail-header__name-line">
            <h2 className="detail-header__name" data-testid="detail-name" data-skill-name={summary.name}>
              {shown}
            </h2>
            {summary.version && <span className="detail-header__version">v{summary.version}</span>}
          </div>
          <div className="detail-header__meta">
            {shown !== summary.name && <code className="detail-header__id">{summary.name}</code>}
            {summary.author && <span>by {summary.author}</span>}
            <TruncatedPath path={summary.path} className="detail-header__path" testId="detail-path" />
          </div>
        </div>
        <div className="detail-header__actions">
          <button
            type="button"
            className="button button--small"
            onClick={() => setTab('run')}
            title="Run this skill with a task"
            data-testid="skill-run-open"
          >
            <PlayIcon size={12} /> Run
          </button>
          <RemoveButton summary={summary} />
        </div>
      </div>
      <div className="detail-header__badges">
        <SourceBadge source={summary.source} />
        <TypeBadge type={summary.type} />
        <button
          type="button"
          className="badge-button"
          onClick={() => setTab('availability')}
          title="Why is it (not) used?"
        >
          {!switches.enabled ? (
            <Badge tone="neutral" title="Turned off: nothing uses it" testId="disabled-badge">
              disabled
            </Badge>
          ) : summary.workspaceEnabled === false ? (
            <Badge
              tone="neutral"
              title="Turned off in this workspace: the router skips it here"
              testId="workspace-off-badge"
            >
              off in this workspace
            </Badge>
          ) : summary.routable ? (
            <Badge
              tone="green"
              icon={<RouteIcon size={12} />}
              title="The router may select this skill"
              testId="routable-badge"
            >
              routable
            </Badge>
          ) : (
            <Badge
              tone="red"
              icon={<ErrorIcon size={12} />}
              title={unroutableReason(summary)}
              testId="routable-badge"
            >
              not routable
            </Badge>
          )}
        </button>
        {summary.untrusted && (
          <Badge
            tone="amber"
            icon={<ShieldIcon size={12} />}
            title="It came with this folder, which you have not trusted: it asks before every run, even if it declares approval: auto"
            testId="untrusted-badge"
          >
            untrusted workspace
          </Badge>
        )}
        {switches.enabled && !switches.autoSelect && (
          <Badge tone="amber" title={`Only $${summary.name} runs it`} testId="manual-badge">
            manual only
          </Badge>
        )}
        {errors + warnings > 0 && (
          <button
            type="button"
            className="badge-button"
            onClick={() => setTab('problems')}
            title="Show problems"
          >
            <ProblemIndicator errors={errors} warnings={warnings} verbose />
          </button>
        )}
        {dangers > 0 && (
          <button
            type="button"
            className="badge-button"
            onClick={() => setTab('overview')}
            title="Show what its instructions ask the agent to do"
          >
            <Badge tone="red" icon={<ErrorIcon size={12} />} testId="instructions-danger-badge">
              {plural(dangers, 'dangerous instruction')}
            </Badge>
          </button>
        )}
        <ShadowLinks summary={summary} />
      </div>
      {summary.description ? (
        <p className="detail-header__desc">{summary.description}</p>
      ) : (
        <p className="detail-header__desc is-missing">No description: the router cannot match this skill.</p>
      )}
    </header>
  );
}
