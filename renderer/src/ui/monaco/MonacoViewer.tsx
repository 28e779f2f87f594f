import './setup';
import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useColorScheme } from '../../lib/useColorScheme';
import { Spinner } from '../Spinner';

export interface MonacoViewerProps {
  value: string;
  language: string;
  /** Distinct per file so each keeps its own model (and view state). */
  path: string;
  wordWrap?: boolean;
}

const OPTIONS: editor.IStandaloneEditorConstructionOptions = {
  readOnly: true,
  domReadOnly: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12.5,
  lineHeight: 20,
  fontFamily:
    "'JetBrains Mono', 'SF Mono', Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace",
  renderLineHighlight: 'none',
  padding: { top: 10, bottom: 10 },
  automaticLayout: true,
  scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10, useShadows: false },
  overviewRulerLanes: 0,
  hideCursorInOverviewRuler: true,
  contextmenu: false,
  folding: true,
  lineNumbersMinChars: 3,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
};

export function MonacoViewer({ value, language, path, wordWrap = false }: MonacoViewerProps) {
  const scheme = useColorScheme();
  return (
    <Editor
      value={value}
      language={language}
      path={path}
      theme={scheme === 'dark' ? 'skilldeck-dark' : 'skilldeck-light'}
      options={{ ...OPTIONS, wordWrap: wordWrap ? 'on' : 'off' }}
      loading={<Spinner label="Loading editor" />}
      height="100%"
    />
  );
}
