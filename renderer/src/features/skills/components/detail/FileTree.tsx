import { useMemo, useState } from 'react';
import type { FileEntry } from '../../../../../../shared/contract';
import { formatBytes } from '../../../../lib/format';
import { ChevronIcon, FileIcon, FolderIcon, TerminalIcon } from '../../../../ui/icons';
import { buildTree, type TreeNode } from './fileTree';

interface FileTreeProps {
  files: FileEntry[];
  truncated: boolean;
  selected?: string;
  onOpen: (path: string) => void;
}

export function FileTree({ files, truncated, selected, onOpen }: FileTreeProps) {
  const tree = useMemo(() => buildTree(files), [files]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (path: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(path)) next.add(path);
      return next;
    });

  const renderNodes = (nodes: TreeNode[], depth: number) =>
    nodes.map((node) => {
      const isDir = node.entry?.kind !== 'file';
      const open = !collapsed.has(node.path);
      const indent = { paddingLeft: 10 + depth * 14 };
      if (isDir) {
        return (
          <li key={node.path} role="treeitem" aria-expanded={open}>
            <button
              type="button"
              className="tree-row tree-row--dir"
              style={indent}
              onClick={() => toggle(node.path)}
            >
              <ChevronIcon size={12} className={`tree-row__chevron${open ? ' is-open' : ''}`} />
              <FolderIcon size={14} />
              <span className="tree-row__name">{node.name}</span>
            </button>
            {open && <ul role="group">{renderNodes(node.children, depth + 1)}</ul>}
          </li>
        );
      }
      const entry = node.entry as FileEntry;
      return (
        <li key={node.path} role="treeitem" aria-selected={selected === node.path}>
          <button
            type="button"
            className={`tree-row${selected === node.path ? ' is-selected' : ''}`}
            style={indent}
            onClick={() => onOpen(node.path)}
            data-testid="file-node"
            data-path={node.path}
          >
            <span className="tree-row__chevron-space" />
            {entry.executable ? (
              <TerminalIcon size={14} className="tree-row__exec" />
            ) : (
              <FileIcon size={14} />
            )}
            <span
              className="tree-row__name"
              title={entry.executable ? `${node.path} (executable)` : node.path}
            >
              {node.name}
            </span>
            {entry.scriptLanguage && (
              <span className="tree-row__tag" title={`Runs with ${entry.scriptLanguage}`}>
                {entry.scriptLanguage}
              </span>
            )}
            <span className="tree-row__size">{formatBytes(entry.size)}</span>
          </button>
        </li>
      );
    });

  return (
    <div className="file-tree" data-testid="file-tree">
      <ul role="tree" aria-label="Skill files">
        {renderNodes(tree, 0)}
      </ul>
      {truncated && <p className="file-tree__note">Only the first files are listed; this skill has more.</p>}
    </div>
  );
}
