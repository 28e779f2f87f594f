import type { SkillDetail } from '../../../../../../shared/contract';
import { MetadataView } from './MetadataView';
import { RawFrontmatter } from './RawFrontmatter';

export function MetadataTab({ detail }: { detail: SkillDetail }) {
  return (
    <div className="split split--metadata">
      <div className="split__side split__side--scroll">
        <MetadataView metadata={detail.metadata} />
      </div>
      <div className="split__side">
        <RawFrontmatter detail={detail} />
      </div>
    </div>
  );
}
