/**
 * Commands whose only use is to destroy what cannot be got back, for the `destructive` rules of
 * ./instructionRules.ts: a recursive delete of the root, a system folder, the home folder or one of
 * its folders of files, keys or settings; formatting or overwriting a disk; a recursive owner or mode
 * change of the system; a fork bomb. A folder of the skill's own (`rm -rf ~/.cache/x`) is not one.
 */
/** The home folder in sh, PowerShell and cmd spellings, quoted or not. */
const HOME = String.raw`["']?(?:~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%)["']?`;
/** Folders whose loss is the loss of the user's work, keys or every app's settings. */
const HOME_DATA = String.raw`(?:Documents|Desktop|Downloads|Pictures|Music|Videos|Movies|Library|\.ssh|\.gnupg|\.config|\.local|\.aws)`;
/** The root and the system's own top-level folders (`/usr/local` and `/tmp/x` are not these). */
const SYSTEM = String.raw`["']?/(?:(?:bin|boot|dev|etc|home|lib\w*|opt|root|sbin|srv|sys|usr|var|System|Library|Users|Applications|private)\b)?["']?`;
/** One of those, whole: alone, with its contents (`/*`, `~/.`) or a trailing slash, then the word ends. */
const END = String.raw`(?=\s|$|[;&|)\`])`;
const WHOLE = String.raw`(?<=\s)(?:${SYSTEM}|${HOME}(?:/${HOME_DATA})?)/?(?:\*|\.\*?)?["']?${END}`;
/**
 * The words of one command up to the next separator, lazily, stopping also where `word` starts
 * again: from each `rm` the line is read only to the next one, as SEND does, so a line of 50,000
 * `rm x ` is not read to its end from each of them.
 */
const argsUntil = (word: string) => String.raw`(?:(?!${word})[^;&|\n])*?`;
const RM_ARGS = argsUntil(String.raw`\brm\s`);
/**
 * A recursive delete of one of them: `rm` with -r/-R/--recursive among its words up to the next
 * command, and the target among them (`rm -rf ./build ~` too); PowerShell's and cmd's likewise.
 */
export const RM_WHOLE = new RegExp(
  [
    String.raw`(?<!-)\brm\s+(?=(?:${RM_ARGS}\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?=\s|$))(?:${RM_ARGS}\s)??${WHOLE.replace('(?<=\\s)', '')}`,
    String.raw`\bRemove-Item\b(?=${argsUntil(String.raw`\bRemove-Item\b`)}\s-Recurse\b)${argsUntil(String.raw`\bRemove-Item\b`)}${WHOLE}`,
    String.raw`\b(?:rd|rmdir)\s+/s\b${argsUntil(String.raw`\b(?:rd|rmdir)\s`)}\s[a-z]:\\(?=\s|$)`,
  ].join('|'),
  'i',
);
/**
 * `find` over one of them that deletes what it finds (`-delete`, `-exec rm`), with no test that
 * narrows it to some files (`-name`, `-mtime`, `-size`, ...): `find ~ -name node_modules -exec rm
 * -rf {} +` is a clean-up, `find ~ -type f -delete` is the home folder gone.
 */
const FIND_ARGS = argsUntil(String.raw`\bfind\s`);
const NARROWS = String.raw`\s-(?:i?name|i?path|i?wholename|i?regex|i?lname|empty|newer\w*|[acm](?:min|time|newer)|size|user|group|uid|gid|perm|links|inum|samefile|prune)\b`;
const FIND_WHOLE = String.raw`\bfind\s+(?:-[HLP]\s+)*${WHOLE.replace('(?<=\\s)', '')}(?!${FIND_ARGS}${NARROWS})${FIND_ARGS}\s(?:-delete\b|-exec(?:dir)?\s+(?:sudo\s+)?rm\b)`;
/** Python's and Node's recursive deletes of the home folder or the root. */
const CODE_HOME = String.raw`(?:os\.path\.expanduser\(\s*["']~/?["']\s*\)|(?:pathlib\.)?Path\.home\(\)|Path\(\s*["']~["']\s*\)\.expanduser\(\)|os\.environ\[\s*["']HOME["']\s*\]|os\.(?:environ\.get|getenv)\(\s*["']HOME["']\s*\)|(?:os\.)?homedir\(\)|process\.env\.HOME\b|process\.env\[\s*["']HOME["']\s*\]|["']/["'])`;
const CODE_RM = [
  String.raw`\bshutil\.rmtree\(\s*${CODE_HOME}\s*[,)]`,
  String.raw`\b(?:fs|fsp|promises)\.(?:rm|rmSync|rmdir|rmdirSync)\(\s*${CODE_HOME}\s*,[^)]*\brecursive\s*:\s*true`,
  String.raw`\brimraf(?:\.sync|Sync)?\(\s*${CODE_HOME}\s*[,)]`,
];
/** Any of the recursive deletes above: `rm` and its PowerShell and cmd kin, `find`, Python, Node. */
export const DELETE_WHOLE = new RegExp([RM_WHOLE.source, FIND_WHOLE, ...CODE_RM].join('|'), 'i');
/**
 * A recursive delete of a variable and nothing after it but `/` or `/*` (`rm -rf "$DIR"/`): when
 * the variable is empty or unset, that is `rm -rf /` (the Steam installer's bug). `${DIR:?}` stops
 * the command instead; the scan drops the line when the text sets the variable (./instructionRules.ts).
 */
export const RM_VARIABLE_ROOT = new RegExp(
  String.raw`(?<!-)\brm\s+(?=(?:${RM_ARGS}\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?=\s|$))(?:${RM_ARGS}\s)??["']?\$\{?([A-Za-z_]\w*)\}?["']?/["']?\*?["']?${END}`,
);
/** Whether `text` sets the shell variable `name` anywhere (assignment, `read`, `for`, `:=`, `getopts`). */
export function setsVariable(text: string, name: string): boolean {
  return new RegExp(
    String.raw`(?:^|[\s;&|(])(?:(?:export|local|declare|typeset|readonly)\s+(?:-\w+\s+)*)?${name}=|\bread\b[^\n;|&]*\s${name}\b|\bfor\s+${name}\s+in\b|\$\{${name}:?[=?]|\bgetopts\s+\S+\s+${name}\b`,
    'm',
  ).test(text);
}
/** A whole disk or partition, Linux and macOS names. */
const DISK = String.raw`/dev/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d+n\d+|mmcblk\d+|r?disk\d+)(?:p?\d+|s\d+)?\b`;
const DD_ARGS = argsUntil(String.raw`\bdd\b`);
export const DISK_WRITE = new RegExp(
  [
    String.raw`\bmkfs(?:\.\w+)?\b${argsUntil(String.raw`\bmkfs`)}\s/dev/\w`,
    // dd that writes zeros or noise over a disk; an image written to one is DD_IMAGE.
    String.raw`\bdd\b(?=${DD_ARGS}(?:\bif=|<\s*)/dev/(?:zero|u?random)\b)${DD_ARGS}\bof=${DISK}`,
    String.raw`/dev/(?:zero|u?random)\b[^|\n;&]*\|\s*(?:sudo\s+)?dd\b${DD_ARGS}\bof=${DISK}`,
    String.raw`\b(?:wipefs|shred)\b${argsUntil(String.raw`\b(?:wipefs|shred)\b`)}\s${DISK}`,
    String.raw`>\s*${DISK}`,
    String.raw`\bdiskutil\s+(?:eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk)\b|\bClear-Disk\b|\bformat\s+[a-z]:(?=\s|$)`,
  ].join('|'),
  'i',
);
/**
 * dd writing onto a whole disk or card: flashing an image (a Raspberry Pi card, a USB installer)
 * is what such a skill is for, but a wrong `of=` loses the disk, so it is worth a look.
 */
export const DD_IMAGE = new RegExp(String.raw`\bdd\b${DD_ARGS}\bof=${DISK}`, 'i');
/** Recursive owner or mode change of the system, or the home made writable by everyone. */
const CH_ARGS = argsUntil(String.raw`\bch(?:mod|own|grp)\s`);
const CH_RECURSIVE = String.raw`\bch(?:mod|own|grp)\s+(?=(?:${CH_ARGS}\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?=\s|$))(?:${CH_ARGS}\s)??`;
export const PERMS_WHOLE = new RegExp(
  String.raw`${CH_RECURSIVE}(?<=\s)${SYSTEM}/?\*?${END}|${CH_RECURSIVE}(?<=\s)(?:[0-7]*7[0-7]*[2367]|[ao]?\+w\w*)\s+${HOME}/?\*?${END}`,
);
/** `:(){ :|:& };:` and cmd's `%0|%0`. */
export const FORK_BOMB = /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|%0\s*\|\s*%0/;
/**
 * Words before a command, or in a heading over it, that warn against running it ("Never: `rm -rf /`",
 * "avoid rm -rf ~", "## Dangerous commands").
 */
export const WARNS =
  /\b(?:never|avoid|not|don'?t|do not)\W*$|\b(?:never|not|don'?t|do not|must not|should not|shouldn'?t|avoid)\s+(?:ever\s+)?(?:to\s+)?(?:run|execute|type|use|try|do|paste|enter)\b|\b(?:dangerous|destructive|forbidden|blocked|block(?:s|list)?|deny|denied|disallowed|prohibited|unsafe|malicious)\b/i;
