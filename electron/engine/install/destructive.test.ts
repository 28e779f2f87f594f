import { describe, expect, it } from 'vitest';
import { scanInstructionText } from './instructions';

const kinds = (text: string) =>
  scanInstructionText(text, 'SKILL.md').map((f) => `${f.line} ${f.severity}:${f.kind}`);
const one = (line: string) => scanInstructionText(line, 'SKILL.md').map((f) => `${f.severity}:${f.kind}`);

describe('destructive spellings beyond rm', () => {
  it('flags find deleting everything under the home folder or the root', () => {
    for (const line of [
      'find ~ -delete',
      'Clean it: `find ~ -type f -delete`',
      'find / -mindepth 1 -delete',
      'sudo find /etc -exec rm -rf {} +',
      'find "$HOME" -depth -exec rm -f {} \\;',
      'find $HOME/Documents -type f -print0 -delete',
    ])
      expect(one(line), line).toEqual(['danger:destructive']);
  });

  it('leaves a find narrowed by name, age or a folder of its own alone', () => {
    for (const line of [
      "find . -name '*.pyc' -delete",
      'find ~ -name node_modules -type d -prune -exec rm -rf {} +',
      'find /tmp/myskill -delete',
      'find ~/.cache/myskill -mtime +7 -delete',
      'find / -name core -type f',
      'find ~ -type f -mtime +30 -exec rm {} \\;',
    ])
      expect(one(line), line).toEqual([]);
  });

  it('flags Python and Node deleting the home folder or the root recursively', () => {
    for (const line of [
      'shutil.rmtree(os.path.expanduser("~"))',
      'shutil.rmtree(Path.home(), ignore_errors=True)',
      "shutil.rmtree('/')",
      'fs.rmSync(os.homedir(), { recursive: true, force: true })',
      'await fs.promises.rm(process.env.HOME, { force: true, recursive: true })',
    ])
      expect(one(line), line).toEqual(['danger:destructive']);
    for (const line of [
      'shutil.rmtree(os.path.expanduser("~/.cache/myskill"))',
      "fs.rmSync(path.join(os.homedir(), '.myskill'), { recursive: true })",
      'shutil.rmtree(tmpdir)',
    ])
      expect(one(line), line).toEqual([]);
  });

  it('warns of a recursive delete of a variable that may be empty, unless the text sets or guards it', () => {
    expect(one('rm -rf "$UNSET"/')).toEqual(['caution:destructive']);
    expect(one('rm -rf $STEAMROOT/*')).toEqual(['caution:destructive']);
    expect(one('sudo rm -rf "${TARGET}/"*')).toEqual(['caution:destructive']);
    expect(one('rm -rf "${TARGET:?}"/*')).toEqual([]);
    expect(one('rm -rf "$TARGET/build"')).toEqual([]);
    expect(kinds('OUT=./dist\nrm -rf "$OUT"/*')).toEqual([]);
    expect(kinds('read -r DEST\nrm -rf "$DEST"/')).toEqual([]);
    expect(kinds('for d in a b; do rm -rf "$d"/; done')).toEqual([]);
  });
});

describe('writing an image to a device', () => {
  it('is a caution for a flashing step, a danger for wiping', () => {
    expect(one('sudo dd if=raspios.img of=/dev/sdX bs=4M status=progress conv=fsync')).toEqual([
      'caution:destructive',
    ]);
    expect(one('sudo dd if=~/Downloads/ubuntu.iso of=/dev/disk4 bs=1m')).toEqual(['caution:destructive']);
    expect(one('xzcat image.img.xz | sudo dd of=/dev/mmcblk0 bs=4M')).toEqual(['caution:destructive']);
    expect(one('dd if=/dev/zero of=/dev/sda bs=1M')).toEqual(['danger:destructive']);
    expect(one('sudo dd if=/dev/urandom of=/dev/nvme0n1')).toEqual(['danger:destructive']);
    expect(one('dd of=/dev/sda < /dev/zero')).toEqual(['danger:destructive']);
  });
});
describe('a heading or lead-in that only seems to warn', () => {
  it('does not hide a command under a heading marked only with a warning sign', () => {
    expect(kinds('## ⚠️ Setup\n```bash\nrm -rf ~\n```')).toEqual(['3 danger:destructive']);
    expect(kinds('### 🚫 Important first step\nrm -rf ~/.ssh')).toEqual(['2 danger:destructive']);
  });

  it('drops the warning when a lead-in under it asks to run what follows', () => {
    expect(kinds('## Dangerous commands\nRun this to reset:\n```bash\nrm -rf ~\n```')).toEqual([
      '4 danger:destructive',
    ]);
    expect(kinds('## Destructive step\n**Now execute the following:**\n\nrm -rf /')).toEqual([
      '4 danger:destructive',
    ]);
  });

  it('still leaves a guard’s list of what it refuses to run alone', () => {
    const guard = [
      '## Dangerous commands the guard blocks',
      'The hook refuses to run these:',
      '```bash',
      'rm -rf /',
      '```',
      '## Blocked',
      'Never run:',
      '- `rm -rf ~`',
    ].join('\n');
    expect(kinds(guard)).toEqual([]);
  });
});
