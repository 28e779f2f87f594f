import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envWithoutModel, isolatedEngines, writeTree } from '../../testing/fixtures';
import { startModelServer } from '../../testing/modelServer';
import { declaredTail } from './declaredWrites';
import { scriptSkill } from './testSkills';

// A run's `files` listed only its own folder. Probing `skilldeck run --json`, a skill with
// {workspace}/** that wrote report.md and data/out.csv into the user's project came back with
// `files: []`, and the window said "No files in its output folder": the user learnt nothing of
// what it had changed in their project.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

describe("a run's files (real bwrap runs)", () => {
  it('list what it wrote in its write folders too, by their paths on disk', async () => {
    const opened = await engines.open();
    writeTree(opened.workspace, {
      'existing.txt': 'before\n',
      'untouched.txt': 'as it was\n',
      'node_modules/pkg/index.js': '1\n',
    });
    const skills = path.join(opened.root, 'skills');
    const id = scriptSkill(
      skills,
      'project-writer',
      [
        'cd "$WORKSPACE"',
        'echo report > report.md',
        'mkdir -p data && echo 1,2 > data/out.csv',
        'echo after >> existing.txt',
        'echo dep >> node_modules/pkg/index.js',
        'echo notes > "$OUTPUT_DIR/notes.md"',
        // git's insides are no files of the user's: a new repository lists its work tree only.
        'git init -q proj && echo a > proj/a.txt && git -C proj add a.txt',
        'git -C proj -c user.name=S -c user.email=s@example.com commit -qm one',
        'git init -q --bare store.git',
        // A link it planted in the project is something it wrote there too.
        'ln -s /etc/hostname host-link',
      ].join('\n'),
      ["permissions: { filesystem: { write: ['{workspace}/**'] } }", 'execution_policy: { approval: auto }'],
    );
    const { createEngine } = await import('../index');
    await opened.engine.close();
    const engine = await createEngine({
      home: opened.home,
      userHome: path.join(opened.root, 'user'),
      workspace: opened.workspace,
      skillDirs: [skills],
      noDefaultPaths: true,
    });
    try {
      const result = await engine.execution.start({ id, task: 'go' }).done;
      expect(result.status).toBe('success');
      const ws = (f: string) => path.join(opened.workspace, f);
      const listed = result.files.map((f) => ({ path: f.path, abs: f.abs, size: f.size }));
      expect(listed).toEqual(
        expect.arrayContaining([
          { path: 'out/notes.md', abs: path.join(result.cwd!, 'out/notes.md'), size: 6 },
          { path: ws('report.md'), abs: ws('report.md'), size: 7 },
          { path: ws('data/out.csv'), abs: ws('data/out.csv'), size: 4 },
          { path: ws('existing.txt'), abs: ws('existing.txt'), size: 13 },
          { path: ws('proj/a.txt'), abs: ws('proj/a.txt'), size: 2 },
          { path: ws('host-link'), abs: ws('host-link'), size: '/etc/hostname'.length },
        ]),
      );
      expect(listed).toHaveLength(6);
      expect(result.scripts?.[0].files?.map((f) => f.path).sort()).toEqual(
        [
          'out/notes.md',
          ws('data/out.csv'),
          ws('existing.txt'),
          ws('host-link'),
          ws('proj/a.txt'),
          ws('report.md'),
        ].sort(),
      );
    } finally {
      await engine.close();
    }
  });

  it("list what an instruction skill's scripts wrote in its write folders", async () => {
    const server = await startModelServer({ apiKey: 'k', models: ['m'] });
    try {
      const opened = await engines.open({
        env: {
          ...envWithoutModel(),
          OPENAI_BASE_URL: server.baseURL,
          OPENAI_API_KEY: 'k',
          SKILLDECK_MODEL: 'm',
        },
      });
      writeTree(path.join(opened.workspace, 'skills/page-writer'), {
        'SKILL.md':
          '---\nname: page-writer\ndescription: Writes a page into the project.\n---\nRun scripts/write.sh.\n',
        'skill.yaml':
          "spec: { type: instruction }\npermissions: { filesystem: { write: ['{workspace}/**'] } }\nexecution_policy: { approval: auto }\n",
        'scripts/write.sh': 'echo page > "$WORKSPACE/page.md"\n',
      });
      await opened.engine.reloadSkills();
      server.enqueue(
        { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/write.sh' } }] },
        { text: 'Wrote page.md.' },
      );
      const id = opened.engine.skills.list().skills.find((s) => s.name === 'page-writer')!.id;
      const result = await opened.engine.execution.start({ id, task: 'write the page' }).done;
      expect(result.status).toBe('success');
      const page = path.join(opened.workspace, 'page.md');
      expect(result.files).toEqual([{ path: page, abs: page, size: 5 }]);
    } finally {
      await server.close();
    }
  });

  // The sandbox binds a write path at the folder its pattern starts in: {workspace}/*.md let the
  // script write evil.py beside the notes, and the run said nothing of it.
  it('name what a script wrote that its declared patterns do not', async () => {
    const opened = await engines.open();
    fs.mkdirSync(opened.workspace, { recursive: true });
    const skills = path.join(opened.root, 'skills');
    const id = scriptSkill(
      skills,
      'notes-writer',
      [
        'cd "$WORKSPACE"',
        'echo a > notes.md',
        'mkdir -p docs/a/b && echo b > docs/a/b/c.txt && echo c > docs/a/run.sh',
        'mkdir -p cache/x && echo d > cache/x/y.bin',
        'echo e > evil.py',
      ].join('\n'),
      [
        "permissions: { filesystem: { write: ['{workspace}/*.md', '{workspace}/docs/**/*.{txt,md}', '{workspace}/cache/*'] } }",
        'execution_policy: { approval: auto }',
      ],
    );
    const { createEngine } = await import('../index');
    await opened.engine.close();
    const engine = await createEngine({
      home: opened.home,
      userHome: path.join(opened.root, 'user'),
      workspace: opened.workspace,
      skillDirs: [skills],
      noDefaultPaths: true,
    });
    try {
      const result = await engine.execution.start({ id, task: 'go' }).done;
      expect(result.status).toBe('success');
      const ws = (f: string) => path.join(opened.workspace, f);
      expect(result.files.map((f) => f.path).sort()).toEqual(
        ['cache/x/y.bin', 'docs/a/b/c.txt', 'docs/a/run.sh', 'evil.py', 'notes.md'].map(ws).sort(),
      );
      expect(result.violations.map((v) => [v.kind, v.target, v.grantable]).sort()).toEqual([
        ['write', ws('docs/a/run.sh'), false],
        ['write', ws('evil.py'), false],
      ]);
      expect(result.violations.find((v) => v.target === ws('evil.py'))!.message).toContain(
        '{workspace}/*.md',
      );
    } finally {
      await engine.close();
    }
  });
});

describe('declaredTail', () => {
  it('reads the pattern after the folder a declared path starts in, placeholders not counted', () => {
    expect(declaredTail('{workspace}/out')).toBeNull();
    expect(declaredTail('$WORKSPACE/**')).toBeNull();
    expect(declaredTail('~/notes/*.md')?.test('a.md')).toBe(true);
    expect(declaredTail('~/notes/*.md')?.test('sub/a.md')).toBe(false);
    const tail = declaredTail('./out/**/r[!0-9]?.{csv,*.json}')!;
    expect(['rx1.csv', 'a/b/rx1.csv', 'ra2.x.json'].map((p) => tail.test(p))).toEqual([true, true, true]);
    expect(['r01.csv', 'rx1.txt', 'rx1.csv.bak'].map((p) => tail.test(p))).toEqual([false, false, false]);
  });
});
