import { useShallow } from 'zustand/react/shallow';
import type { SkillSummary } from '../../../../../../shared/contract';
import { Switch } from '../../../../ui/Switch';
import { switchesOf } from '../../manage';
import { useSkillsStore } from '../../store';
import { useWorkspaceStore } from '../../../workspace/store';

/** Enable / disable and "never auto-select", by skill name and persisted by the engine (issue 3, item 5). */
export function RoutingSwitches({ summary }: { summary: SkillSummary }) {
  const switches = useSkillsStore(useShallow((s) => switchesOf(s, summary)));
  const setEnabled = useSkillsStore((s) => s.setEnabled);
  const setAutoSelect = useSkillsStore((s) => s.setAutoSelect);
  const setHere = useWorkspaceStore((s) => s.setSkillEnabled);
  return (
    <section className="availability__section routing-switches">
      <h3>Routing</h3>
      <Switch
        checked={switches.enabled}
        onChange={(on) => void setEnabled(summary.name, on)}
        label="Enabled"
        hint={`Off: nothing uses it, not even $${summary.name}. Applies to every skill with this name.`}
        testId="switch-enabled"
      />
      <Switch
        checked={summary.workspaceEnabled !== false}
        onChange={(on) => void setHere(summary.name, on)}
        disabled={!switches.enabled}
        label="On in this workspace"
        hint={`Off: the router never picks it in this folder, nor $${summary.name}; other folders keep it.`}
        testId="switch-workspace"
      />
      <Switch
        checked={switches.autoSelect}
        onChange={(on) => void setAutoSelect(summary.name, on)}
        disabled={!switches.enabled}
        label="Auto-select"
        hint={
          summary.flagged && !switches.autoSelect
            ? `Off because its instructions are flagged (${summary.flagged.file} line ${summary.flagged.line}); only $${summary.name} runs it. On: the router may pick it anyway.`
            : `Off: the router never picks it on its own; only $${summary.name} runs it.`
        }
        testId="switch-auto-select"
      />
    </section>
  );
}
