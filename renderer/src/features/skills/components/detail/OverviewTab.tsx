import { useCallback } from 'react';
import type { SkillDetail } from '../../../../../../shared/contract';
import { Markdown } from '../../../../ui/Markdown';
import { Placeholder } from '../../../../ui/Placeholder';
import { useSkillsStore } from '../../store';
import { DetailInstructions } from './DetailInstructions';
import { LoadErrorNotice } from './LoadErrorNotice';

export function OverviewTab({ detail }: { detail: SkillDetail }) {
  const openFile = useSkillsStore((s) => s.openFile);
  const setTab = useSkillsStore((s) => s.setTab);
  const { id } = detail;
  // A relative link in a skill points at one of its files: show it in the Files tab.
  const onRelativeLink = useCallback(
    (path: string) => {
      setTab('files');
      void openFile(id, path);
    },
    [id, openFile, setTab],
  );

  return (
    <div className="overview">
      <LoadErrorNotice detail={detail} />
      <DetailInstructions detail={detail} />
      {detail.body.trim() ? (
        <Markdown
          source={detail.body}
          onRelativeLink={onRelativeLink}
          testId="detail-body"
          headingLevel={3}
        />
      ) : (
        <div data-testid="detail-body">
          <Placeholder title="No instructions">
            <p>This SKILL.md has frontmatter only; its body is empty.</p>
          </Placeholder>
        </div>
      )}
    </div>
  );
}
