import type { InstallFile, SkillMetadata } from '../../../shared/contract';

const LANGUAGE_NAMES: Record<string, string> = {
  python: 'python',
  bash: 'bash',
  sh: 'shell',
  zsh: 'zsh',
  node: 'JavaScript (node)',
  typescript: 'TypeScript',
  ruby: 'ruby',
  perl: 'perl',
  php: 'php',
  powershell: 'PowerShell',
  lua: 'lua',
};

/**
 * What a skill will be able to do, as short plain sentences (issue 3: "runs python scripts;
 * writes ./out/**; reaches api.example.com; reads env OPENAI_API_KEY"). Built from the
 * normalized metadata and the files that will actually be installed.
 */
export function capabilitySummary(m: SkillMetadata, files: InstallFile[]): string[] {
  const out: string[] = [];
  const languages = [...new Set(files.flatMap((f) => (f.scriptLanguage ? [f.scriptLanguage] : [])))];
  for (const lang of languages) out.push(`runs ${LANGUAGE_NAMES[lang] ?? lang} scripts`);
  for (const e of m.entrypoints) out.push(`runs entrypoint ${e.name} (${e.path})`);
  for (const p of m.permissions.filesystem.read) out.push(`reads ${p}`);
  for (const p of m.permissions.filesystem.write) out.push(`writes ${p}`);
  const net = m.permissions.network.outbound;
  if (net === true) out.push('reaches any host on the network');
  else if (Array.isArray(net)) for (const host of net) out.push(`reaches ${host}`);
  const envs = new Set([
    ...m.permissions.environment.allow,
    ...m.requires.env,
    ...(m.primaryEnv ? [m.primaryEnv] : []),
  ]);
  for (const name of envs) out.push(`reads env ${name}`);
  const bins = [...m.requires.bins, ...m.requires.anyBins];
  if (bins.length) out.push(`uses programs: ${bins.join(', ')}`);
  for (const name of m.permissions.named) out.push(`asks for permission "${name}"`);
  if (m.allowedTools.length) out.push(`may use tools: ${m.allowedTools.join(', ')}`);
  if (m.install.length)
    out.push(`suggests installing ${m.install.length} dependenc${m.install.length === 1 ? 'y' : 'ies'}`);
  if (m.execution.dangerous) out.push('is marked dangerous by its author');
  if (m.execution.sandbox === 'none') out.push('asks to run without a sandbox');
  if (m.always) out.push('asks to be included in every conversation');
  if (m.requires.os.length) out.push(`runs only on ${m.requires.os.join(', ')}`);
  if (out.length === 0) out.push('instructions only: runs nothing, declares no file, network or env access');
  return out;
}
