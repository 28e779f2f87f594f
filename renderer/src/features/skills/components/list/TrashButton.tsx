import { useState } from 'react';
import { TrashIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';
import { TrashDialog } from './TrashDialog';

/** Removed and replaced skills stay restorable until the trash is emptied (issue 3, item 4). */
export function TrashButton() {
  const [open, setOpen] = useState(false);
  const loadTrash = useSkillsStore((s) => s.loadTrash);
  return (
    <>
      <button
        type="button"
        className="link-button trash-button"
        onClick={() => {
          setOpen(true);
          void loadTrash();
        }}
        title="Removed and replaced skills"
        data-testid="trash-open"
      >
        <TrashIcon size={12} />
        Trash
      </button>
      {open && <TrashDialog onClose={() => setOpen(false)} />}
    </>
  );
}
