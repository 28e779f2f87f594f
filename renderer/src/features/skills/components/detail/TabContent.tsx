import type { SkillDetail } from '../../../../../../shared/contract';
import type { DetailTab } from '../../store';
import { FilesTab } from './FilesTab';
import { MetadataTab } from './MetadataTab';
import { OverviewTab } from './OverviewTab';
import { ProblemsTab } from './ProblemsTab';

export function TabContent({ tab, detail }: { tab: DetailTab; detail: SkillDetail }) {
  switch (tab) {
    case 'overview':
      return <OverviewTab detail={detail} />;
    case 'metadata':
      return <MetadataTab detail={detail} />;
    case 'files':
      return <FilesTab detail={detail} />;
    case 'problems':
      return <ProblemsTab detail={detail} />;
  }
}
