import type { SkillDetail, SkillSummary } from '../../../../../../shared/contract';
import { EvalsTab } from '../../../evals/components/EvalsTab';
import { RepairHistoryTab } from '../../../repair/components/RepairHistoryTab';
import { RunTab } from '../../../runs/components/RunTab';
import type { DetailTab } from '../../store';
import { AvailabilityTab } from './AvailabilityTab';
import { FilesTab } from './FilesTab';
import { MetadataTab } from './MetadataTab';
import { OverviewTab } from './OverviewTab';
import { ProblemsTab } from './ProblemsTab';

export function TabContent({
  tab,
  detail,
  summary,
}: {
  tab: DetailTab;
  detail: SkillDetail;
  summary: SkillSummary;
}) {
  switch (tab) {
    case 'overview':
      return <OverviewTab detail={detail} />;
    case 'run':
      return <RunTab detail={detail} />;
    case 'metadata':
      return <MetadataTab detail={detail} />;
    case 'files':
      return <FilesTab detail={detail} />;
    case 'problems':
      return <ProblemsTab detail={detail} />;
    case 'evals':
      return <EvalsTab detail={detail} />;
    case 'availability':
      return <AvailabilityTab summary={summary} />;
    case 'history':
      return <RepairHistoryTab summary={summary} />;
  }
}
