import type { FileEntry } from '../../../../../../shared/contract';

export interface TreeNode {
  name: string;
  path: string;
  entry?: FileEntry;
  children: TreeNode[];
}

const rank = (node: TreeNode): number => {
  if (node.children.length > 0 || node.entry?.kind === 'dir') return 1;
  return /^skill\.md$/i.test(node.name) ? 0 : 2;
};

/** Nest the flat `SkillDetail.files` list: SKILL.md first, then folders, then files, by name. */
export function buildTree(entries: readonly FileEntry[]): TreeNode[] {
  const root: TreeNode = { name: '', path: '', children: [] };
  const dirs = new Map<string, TreeNode>([['', root]]);

  const dirNode = (path: string): TreeNode => {
    const existing = dirs.get(path);
    if (existing) return existing;
    const cut = path.lastIndexOf('/');
    const node: TreeNode = { name: path.slice(cut + 1), path, children: [] };
    dirNode(cut < 0 ? '' : path.slice(0, cut)).children.push(node);
    dirs.set(path, node);
    return node;
  };

  for (const entry of entries) {
    if (entry.kind === 'dir') {
      dirNode(entry.path).entry = entry;
      continue;
    }
    const cut = entry.path.lastIndexOf('/');
    dirNode(cut < 0 ? '' : entry.path.slice(0, cut)).children.push({
      name: entry.path.slice(cut + 1),
      path: entry.path,
      entry,
      children: [],
    });
  }

  const sort = (nodes: TreeNode[]) => {
    nodes.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
    for (const node of nodes) sort(node.children);
  };
  sort(root.children);
  return root.children;
}

/** The file the Files tab opens first: SKILL.md, else the first file. */
export function defaultFile(entries: readonly FileEntry[]): string | undefined {
  const files = entries.filter((e) => e.kind === 'file');
  return (files.find((e) => /^skill\.md$/i.test(e.path)) ?? files[0])?.path;
}
