import { useRef, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { UPLOAD_MAX_BYTES } from '../../../../../shared/contract';
import { useShallow } from 'zustand/react/shallow';
import { InlineCode } from '../../../ui/InlineCode';
import { ArchiveIcon, ErrorIcon, FolderIcon, GitIcon, InfoIcon } from '../../../ui/icons';
import type { SourceForm as Form, SourceTab } from '../model';
import { useInstallStore } from '../store';

const TABS: { id: SourceTab; label: string; icon: ReactNode }[] = [
  { id: 'folder', label: 'Folder', icon: <FolderIcon size={15} /> },
  { id: 'archive', label: 'Archive', icon: <ArchiveIcon size={15} /> },
  { id: 'git', label: 'Git', icon: <GitIcon size={15} /> },
];

interface FieldProps {
  field: keyof Form;
  label: string;
  placeholder: string;
  hint?: ReactNode;
  autoFocus?: boolean;
}

function Field({ field, label, placeholder, hint, autoFocus }: FieldProps) {
  const value = useInstallStore((s) => s.form[field]);
  const setField = useInstallStore((s) => s.setField);
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input
        className="field__input"
        value={value}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        autoFocus={autoFocus}
        data-autofocus={autoFocus || undefined}
        onChange={(event) => setField(field, event.target.value)}
        data-testid={`install-${field}`}
      />
      {hint && <span className="field__hint">{hint}</span>}
    </label>
  );
}

/** Picks a .zip / .skill file and sends its bytes: a page cannot learn the file's path. */
function ArchivePicker() {
  const stageFile = useInstallStore((s) => s.stageFile);
  const input = useRef<HTMLInputElement>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void stageFile(file);
  };
  return (
    <div className="field">
      <span className="field__label">Or choose a file</span>
      <div>
        <button
          type="button"
          className="button"
          onClick={() => input.current?.click()}
          data-testid="install-archive-pick"
        >
          <ArchiveIcon size={15} />
          Choose archive…
        </button>
        <input
          ref={input}
          type="file"
          accept=".zip,.skill"
          hidden
          onChange={onChange}
          data-testid="install-archive-file"
        />
      </div>
      <span className="field__hint">
        Sent to SkillDeck and checked the same way (up to {Math.floor(UPLOAD_MAX_BYTES / 1_000_000)} MB; paste
        the path of a bigger one).
      </span>
    </div>
  );
}

export function SourceForm() {
  const { tab, notice, error, setTab, stage } = useInstallStore(
    useShallow((s) => ({ tab: s.tab, notice: s.notice, error: s.error, setTab: s.setTab, stage: s.stage })),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void stage();
  };

  return (
    <form id="install-form" className="source-form" onSubmit={onSubmit} data-testid="install-form">
      <div className="source-tabs" role="tablist" aria-label="Source">
        {TABS.map(({ id, label, icon }) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={`source-tabs__tab${tab === id ? ' is-active' : ''}`}
            onClick={() => setTab(id)}
            data-testid={`install-tab-${id}`}
          >
            {icon}
            {label}
          </button>
        ))}
      </div>

      {notice && (
        <p className="callout callout--info" data-testid="install-notice">
          <InfoIcon size={15} />
          <span>{notice}</span>
        </p>
      )}

      {tab === 'folder' && (
        <Field
          key="folder"
          field="folder"
          label="Folder path"
          placeholder="/path/to/my-skill"
          autoFocus
          hint="A skill folder (with a SKILL.md), or a folder holding several skills. You can also drop a folder on the window."
        />
      )}
      {tab === 'archive' && (
        <Field
          key="archive"
          field="archive"
          label="Archive path"
          placeholder="/path/to/skill.zip"
          autoFocus
          hint="A .zip or .skill file on this machine. Entries that escape the skill folder are refused."
        />
      )}
      {tab === 'archive' && <ArchivePicker />}
      {tab === 'git' && (
        <>
          <Field
            key="gitUrl"
            field="gitUrl"
            label="Repository URL"
            placeholder="https://github.com/owner/skills.git"
            autoFocus
            hint="https, ssh (git@host:owner/repo) or file://"
          />
          <div className="field-row">
            <Field field="gitRef" label="Ref (optional)" placeholder="main, v1.2.0 or a commit" />
            <Field field="gitSubpath" label="Sub-path (optional)" placeholder="skills/pdf" />
          </div>
        </>
      )}

      {error && (
        <p className="callout callout--error" role="alert" data-testid="install-error">
          <ErrorIcon size={15} />
          <span>
            <InlineCode text={error} />
          </span>
        </p>
      )}
    </form>
  );
}
