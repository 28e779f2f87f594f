import type { editor } from 'monaco-editor';
import { useEffect, useState } from 'react';
import type { ProposalFile, RepairProposal } from '../../../../../shared/contract';
import { DiffViewer } from '../../../ui/DiffViewer';
import { languageForPath } from '../../../ui/monaco/languages';
import { hunkLines, hunksOf, selectedText, shownText, wholeSelection } from '../selection';
import { useRepairStore } from '../store';
import { useSelection } from '../useSelection';

export interface HunkJump {
  index: number;
  /** Changes on every request, so showing the same hunk twice scrolls twice. */
  nonce: number;
}

interface DiffPaneProps {
  p: RepairProposal;
  file: ProposalFile;
  /** The right side can be edited (a pending, fresh proposal). */
  editable: boolean;
  jump: HunkJump | null;
}

/**
 * One patched file in Monaco's diff editor: the original on the left, on the right the
 * accepted hunks — or the user's edit, which then replaces the file's hunks (DESIGN §5).
 * Mounted per proposal and file (the caller keys it), so its callbacks never go stale.
 */
export function DiffPane({ p, file, editable, jump }: DiffPaneProps) {
  const sel = useSelection(p);
  const [diff, setDiff] = useState<editor.IStandaloneDiffEditor | null>(null);
  const hunks = hunksOf(p, file.path);
  const accepted = sel.accepted;

  // Show the requested hunk once the editor is there: scroll both sides, put the cursor on the right.
  useEffect(() => {
    if (!diff || !jump || !hunks.some((h) => h.index === jump.index)) return;
    const { original, modified } = hunkLines(hunks, accepted, jump.index);
    diff.getOriginalEditor().revealLineInCenter(original);
    const right = diff.getModifiedEditor();
    right.revealLineInCenter(modified);
    right.setPosition({ lineNumber: modified, column: 1 });
    right.focus();
    // Only a new request moves the view, not a change of the accepted hunks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [diff, jump]);

  // An edit is whatever differs from the accepted hunks; typing it back undoes the edit.
  const onChange = (text: string) => {
    const store = useRepairStore.getState();
    const current = store.selections[p.id] ?? wholeSelection(p);
    const derived = selectedText(file, hunks, current.accepted) ?? file.after;
    store.setEdited(p, file.path, text === derived ? null : text);
  };

  const language = languageForPath(file.path);
  return (
    <DiffViewer
      testId="diff-view"
      label={`Changes to ${file.path}: the proposal against the original`}
      original={file.before ?? ''}
      modified={shownText(file, p, sel)}
      language={language}
      editable={editable}
      onChange={onChange}
      onReady={setDiff}
      wordWrap={language === 'markdown' || language === 'plaintext'}
      sideLabels={{
        original: `Original ${file.path}, read-only`,
        modified: `Proposed ${file.path}, ${editable ? 'editable: your text replaces its hunks' : 'read-only'}`,
      }}
    />
  );
}
