import './setup';
import { DiffEditor } from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useColorScheme } from '../../lib/useColorScheme';
import { Spinner } from '../Spinner';

export interface MonacoDiffProps {
  original: string;
  modified: string;
  language: string;
  /** The right side can be edited; every change is reported with the whole text. */
  editable?: boolean;
  onChange?(text: string): void;
  /** The editor, once it is ready: for revealing a line from outside. */
  onReady?(editor: editor.IStandaloneDiffEditor): void;
  wordWrap?: boolean;
  /** What a screen reader calls each side's text box: otherwise both are nameless. */
  sideLabels?: { original: string; modified: string };
}

const OPTIONS: editor.IDiffEditorConstructionOptions = {
  originalEditable: false,
  renderSideBySide: true,
  // Narrow windows get the inline view instead of two cramped columns.
  useInlineViewWhenSpaceIsLimited: true,
  renderSideBySideInlineBreakpoint: 720,
  // Hunks are accepted or rejected in the list beside the diff, never by the margin arrows.
  renderMarginRevertIcon: false,
  renderGutterMenu: false,
  renderIndicators: true,
  ignoreTrimWhitespace: false,
  enableSplitViewResizing: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12.5,
  lineHeight: 20,
  fontFamily:
    "'JetBrains Mono', 'SF Mono', Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace",
  padding: { top: 8, bottom: 8 },
  automaticLayout: true,
  scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10, useShadows: false },
  renderOverviewRuler: false,
  contextmenu: false,
  lineNumbersMinChars: 3,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
};

/** Monaco's diff editor, bundled (setup.ts), themed like the app; the left side is always read-only. */
export function MonacoDiff({
  original,
  modified,
  language,
  editable = false,
  onChange,
  onReady,
  wordWrap = false,
  sideLabels,
}: MonacoDiffProps) {
  const scheme = useColorScheme();
  return (
    <DiffEditor
      original={original}
      modified={modified}
      language={language}
      theme={scheme === 'dark' ? 'skilldeck-dark' : 'skilldeck-light'}
      options={{
        ...OPTIONS,
        readOnly: !editable,
        wordWrap: wordWrap ? 'on' : 'off',
        diffWordWrap: wordWrap ? 'on' : 'off',
        ...(sideLabels && {
          originalAriaLabel: sideLabels.original,
          modifiedAriaLabel: sideLabels.modified,
        }),
      }}
      loading={<Spinner label="Loading the diff" />}
      height="100%"
      // The wrapper disposes its models before the editor, which Monaco reports as an error;
      // the models are disposed here instead, once the editor is gone.
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(diff) => {
        const models = diff.getModel();
        diff.onDidDispose(() =>
          setTimeout(() => {
            models?.original.dispose();
            models?.modified.dispose();
          }),
        );
        const right = diff.getModifiedEditor();
        right.onDidChangeModelContent(() => onChange?.(right.getValue()));
        // Monaco 0.57 turns wrapping off on the hidden left side while the diff starts inline
        // (laid out before its box had a width) and never turns it back on when it goes side by
        // side: the original's long lines ran on under the right side, cut off.
        const left = diff.getOriginalEditor();
        const rewrap = () => {
          if (wordWrap && left.getLayoutInfo().width > 0)
            left.updateOptions({ wordWrapOverride2: 'inherit' });
        };
        left.onDidLayoutChange(rewrap);
        rewrap();
        onReady?.(diff);
      }}
    />
  );
}
