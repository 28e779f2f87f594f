/**
 * The rules of the instruction scan (./instructions.ts), as data: each is a few line patterns,
 * a severity and the sentence the preview shows. Rules of one kind are listed danger first.
 */
import type { InstructionFinding } from '../../../shared/contract';
import {
  DD_IMAGE,
  DELETE_WHOLE,
  DISK_WRITE,
  FORK_BOMB,
  PERMS_WHOLE,
  RM_VARIABLE_ROOT,
  setsVariable,
} from './destructivePatterns';

type Severity = InstructionFinding['severity'];
type Kind = InstructionFinding['kind'];

export interface Rule {
  kind: Kind;
  severity: Severity;
  /** Every pattern must match the (logical) line; the first one is the rule's key phrase. */
  all: RegExp[];
  /** The line is skipped when this matches (negations, error handling). */
  unless?: RegExp;
  /**
   * A rule about wording, not a command: skipped when its key phrase is quoted ("ignore previous
   * instructions" as an example) or sits under a heading that lists what not to do or what to detect.
   */
  prose?: boolean;
  /**
   * A command whose only use is harm: skipped when the line warns against it before it ("never run
   * rm -rf /") or sits under a heading or lead-in that does ("## Dangerous commands"), as guards and
   * security checklists list them. Narrower than `prose`: "## Examples" over `rm -rf ~` still counts.
   */
  warned?: boolean;
  /**
   * Worded for a reader, not a command: not applied to scripts (`open(name, pwd=None)` is Python,
   * not an archive password).
   */
  readerOnly?: boolean;
  /** The line is skipped when the whole text shows the key phrase's match harmless. */
  refute?: (match: RegExpExecArray, text: string) => boolean;
  reason: string;
}

/** Hosts for throwaway or anonymous content: a script fetched from one can be anything tomorrow. */
const DROP_HOST =
  /https?:\/\/(?:gist\.github(?:usercontent)?\.com|pastebin\.com|paste\.\w+|glot\.io|hastebin\.\w+|rentry\.\w+|transfer\.sh|bit\.ly|tinyurl\.com|t\.co|is\.gd|[\w-]+\.ngrok(?:-free)?\.\w+|[\w-]+\.trycloudflare\.com|webhook\.site|\d{1,3}(?:\.\d{1,3}){3})(?=[/:\s"'`)]|$)/i;
/** Temporary tunnels and bare addresses (loopback and private ranges are the user's own). */
const TUNNEL_HOST =
  /https?:\/\/(?![\w-]*(?:your|xxx|abc|example|my-?tunnel))(?:[\w-]+\.)*(?:ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|bore\.pub|serveo\.net|loca\.lt|localtunnel\.me|pagekite\.me|localhost\.run)\b|https?:\/\/(?!(?:127|10|0)\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.)\d{1,3}(?:\.\d{1,3}){3}\b/i;
/** A download command with something to download (not the bare words "curl | bash"). */
const FETCH = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\s+[^|\s]/i;
/** Piped into an interpreter that reads its program from stdin. */
const PIPE_TO_SHELL =
  /\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi)?sh|iex|Invoke-Expression)(?![\w.-])|\|\s*(?:sudo\s+)?(?:python[\d.]*|node|perl|ruby)\s*(?:-\s*)?(?:$|[;&|)`'"])/i;
/** `bash <(curl …)`, `sh -c "$(wget …)"`, `eval "$(curl …)"`. */
const SUBST_TO_SHELL =
  /\b(?:(?:ba|z)?sh\s+(?:-c\s+)?["']?(?:<\(|\$\()|eval\s+["']?\$\(|source\s+<\()\s*(?:curl|wget)\b/i;
const DECODE_TO_SHELL =
  /\bbase64\s+(?:-d|--decode|-D)\b(?:(?!\bbase64\s+(?:-d|--decode|-D)\b).)*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/i;

/** Files that hold keys and tokens (public keys are not secrets). */
const SECRET_FILE =
  /~\/\.ssh\b(?!\/\S*\.pub)|\.ssh\/id_\w+\b(?!\.pub)|\bid_(?:rsa|ed25519|ecdsa)\b(?!\.pub)|\.aws\/credentials|~\/\.gnupg|\.netrc\b|\.git-credentials|\.kube\/config|\.docker\/config\.json|\bwallet\.dat\b|\bkeychain\b|\bLogin Data\b|cookies\.sqlite|(?:Chrome|Chromium|Firefox|Brave|Edge)\b.{0,40}\bcookies\b|\bbrowser (?:cookies|passwords)\b/i;
const SEED = /\b(?:seed phrase|recovery phrase|mnemonic(?: phrase)?|private keys?|secret key)\b/i;
/** A `.env` file as a file (not `.env.example`). */
const DOTENV = /(?:^|[\s"'`=@/(])\.env(?![\w.-])/;
const SECRET_ANY = new RegExp(`${SECRET_FILE.source}|${SEED.source}|${DOTENV.source}`, 'i');
/**
 * Sending something off the machine. `X(?:(?!X).)*Y`, not `X.*Y`: from each `curl` the line is read
 * only up to the next one, where the search goes on, so a line of 40,000 `curl ` is not read to its
 * end from each of them (3.7 s); a line holds a match exactly when it did before.
 */
const SEND =
  /\bcurl\b(?:(?!\bcurl\b).)*(?:\s-d\b|--data|\s-F\b|--form|\s-T\b|--upload-file)|\bwget\b(?:(?!\bwget\b).)*--post|\b(?:send|upload|post|exfiltrate|transmit|forward)\b.{0,80}(?:https?:\/\/|\bwebhook\b|\bserver\b|\bendpoint\b)|\bnc\s+\S+\s+\d+/i;
/** Prose that forbids or denies the act ("never share your private key"). */
export const NEGATED =
  /\b(?:never|not|don'?t|doesn'?t|won'?t|cannot|can'?t|no|without|avoid|refuse|prevent|protect|instead of)\b|不要|切勿|禁止|不会/i;
const TO_USER = String.raw`(?:the |your |this )?(?:user|human|owner|operator|person)s?\b(?![-\s](?:output|readable|language|input|review))`;
/** What makes hiding something from the user harmful rather than tidy. */
const RISKY_ACT =
  /\b(?:send|upload|post|install|download|execute|curl|wget|transfer|pay|payment|buy|purchase|delete|remove|keys?|password|credentials?|tokens?|wallet|secrets?|cookies?|ssh|money|funds)\b|发送|上传|安装|下载|执行|转账|支付|删除|密钥|密码|凭证|令牌|钱包|私钥/i;
const ACT_VERB = String.raw`(?:run|install|execute|download|send|upload|post|save|store|record|remember|log|track|collect|commit|push|update|add|modify|delete)`;
const CONCEAL_EN = new RegExp(
  String.raw`\b(?:do not|don'?t|never|without)\s+(?:ever\s+)?(?:tell|inform|notify|alert|reveal|disclose|mention|show|let)(?:ing)?\s+(?:(?:this|it|anything|them)\s+)?(?:to\s+)?${TO_USER}(?!\s+(?:to|how|why|what|which|that they|about how)\b)|\b(?:hide|hiding|conceal|concealing|keep)\b.{0,60}\b(?:from|secret from)\s+${TO_USER}|\b(?:secretly|covertly)\s+${ACT_VERB}\b|\bbehind the user'?s back\b|\bwithout (?:the )?(?:user|human)(?:'s)? (?:knowing|knowledge|noticing)`,
  'i',
);
const CONCEAL_ZH =
  /(?:不要|别|不得|切勿|无需|不用)(?:向|对|跟|让)?(?:用户|使用者)(?:透露|提及|说明|知道|知晓)|(?:不要|别|不得|切勿|无需|不用)(?:告诉|告知|通知|提醒|提示)(?:用户|使用者)|瞒着用户|对用户隐瞒|向用户隐瞒|偷偷|暗中/;
const SILENT_EN = new RegExp(
  String.raw`\b(?:silently|quietly)\s+(?:just\s+)?${ACT_VERB}\b|\b${ACT_VERB}\b.{0,30}\b(?:silently|quietly)\b`,
  'i',
);
/** "fails silently", "silently ignored": error handling, not secrecy. */
const SILENT_ERRORS =
  /\b(?:fail(?:s|ed|ing)?|errors?|ignored?|skip(?:s|ped)?|drop(?:s|ped)?|discard(?:s|ed)?|swallow(?:s|ed)?|truncates?|overwrites?)\s+(?:\w+\s+)?(?:silently|quietly)\b|\b(?:silently|quietly)\s+(?:fail|ignore|skip|drop|discard|swallow|truncate|overwrite)|silent mode/i;

export const RULES: readonly Rule[] = [
  // Destroying what cannot be got back. Deleting a folder of the skill's own (`rm -rf ~/.cache/x`,
  // `~/.config/x`) is the usual uninstall or reset step and is not flagged.
  {
    kind: 'destructive',
    severity: 'danger',
    all: [DELETE_WHOLE],
    warned: true,
    reason: 'Deletes your home folder, a folder of your files or keys, or the whole system, beyond recovery.',
  },
  {
    kind: 'destructive',
    severity: 'danger',
    all: [DISK_WRITE],
    warned: true,
    reason: 'Formats or overwrites a whole disk or partition: everything on it is lost.',
  },
  {
    kind: 'destructive',
    severity: 'danger',
    all: [PERMS_WHOLE],
    warned: true,
    reason:
      'Changes the owner or permissions of every system file, or opens your home folder to every user: the system or your SSH keys stop working.',
  },
  {
    kind: 'destructive',
    severity: 'danger',
    all: [FORK_BOMB],
    warned: true,
    reason: 'A fork bomb: it starts copies of itself until the machine freezes and must be restarted.',
  },
  {
    kind: 'destructive',
    severity: 'caution',
    all: [DD_IMAGE],
    warned: true,
    reason:
      'Writes an image over a whole disk or memory card: everything on that device is lost. Check which device of= names before it runs.',
  },
  {
    kind: 'destructive',
    severity: 'caution',
    all: [RM_VARIABLE_ROOT],
    warned: true,
    refute: (match, text) => setsVariable(text, match[1]),
    reason:
      "Deletes a variable's folder recursively, and nothing here sets the variable: empty or unset, this deletes everything from / down. ${VAR:?} would stop instead.",
  },
  // Hiding from the user: danger when what is hidden is an install, a payment, a key, a send.
  {
    kind: 'conceal',
    severity: 'danger',
    all: [CONCEAL_EN, RISKY_ACT],
    prose: true,
    reason:
      'Tells the agent to keep an install, payment or secret from you, so you would not see it to say no.',
  },
  {
    kind: 'conceal',
    severity: 'danger',
    all: [CONCEAL_ZH, RISKY_ACT],
    prose: true,
    reason:
      'Tells the agent (in Chinese) to keep an install, payment or secret from you, so you would not see it to say no.',
  },
  {
    kind: 'conceal',
    severity: 'caution',
    all: [CONCEAL_EN],
    prose: true,
    reason: 'Tells the agent to keep something from you.',
  },
  {
    kind: 'conceal',
    severity: 'caution',
    all: [CONCEAL_ZH],
    prose: true,
    reason: 'Tells the agent (in Chinese) to keep something from you.',
  },
  {
    kind: 'conceal',
    severity: 'caution',
    all: [SILENT_EN],
    unless: SILENT_ERRORS,
    prose: true,
    reason: 'Tells the agent to act silently, so you may not notice what it does.',
  },
  {
    kind: 'conceal',
    severity: 'caution',
    all: [/静默(?:地)?(?:执行|运行|安装|下载|上传|发送|处理|记录|保存|提交|推送)|悄悄(?:地)?/],
    prose: true,
    reason: 'Tells the agent (in Chinese) to act silently, so you may not notice what it does.',
  },
  // Acting without asking.
  {
    kind: 'no-consent',
    severity: 'caution',
    all: [
      /\bno human (?:approval|confirmation|in the loop|oversight)\b|\bwithout (?:asking|waiting for|requiring|needing|seeking)\s+(?:the user|your human|permission|confirmation|approval|consent)\b|\b(?:do not|don'?t|never)\s+ask\s+(?:(?:the )?users?\s+|your human\s+)?(?:for (?:permission|confirmation|approval|consent)\b|before\b|whether\b|if\b|["'“](?:should|can|shall|may|do you|want me))/i,
    ],
    prose: true,
    reason: 'Tells the agent to act without asking you first.',
  },
  {
    kind: 'no-consent',
    severity: 'caution',
    all: [
      /(?:无需|不需要|不必|不用)(?:征得|征求|经过)?(?:用户)(?:手动)?(?:同意|确认|许可)|无需(?:手动)?确认/,
    ],
    prose: true,
    reason: 'Tells the agent (in Chinese) to act without asking you first.',
  },
  // Running code fetched from the network.
  {
    kind: 'remote-code',
    severity: 'danger',
    all: [DECODE_TO_SHELL],
    reason: 'Decodes hidden text and runs it as a shell script: you cannot read what it runs.',
  },
  {
    kind: 'remote-code',
    severity: 'danger',
    all: [FETCH, DROP_HOST, PIPE_TO_SHELL],
    reason:
      'Pipes a script from a paste site, short link or bare address into a shell: it can change after you review it and runs with your rights.',
  },
  {
    kind: 'remote-code',
    severity: 'caution',
    all: [FETCH, PIPE_TO_SHELL],
    reason:
      'Pipes a downloaded script straight into a shell: whatever the server sends runs with your rights.',
  },
  {
    kind: 'remote-code',
    severity: 'caution',
    all: [SUBST_TO_SHELL],
    reason: 'Runs a downloaded script straight in a shell: whatever the server sends runs with your rights.',
  },
  // Secrets.
  {
    kind: 'secrets',
    severity: 'danger',
    all: [SEND, SECRET_ANY],
    unless: NEGATED,
    reason: 'Sends a key, password or credentials file off this machine.',
  },
  {
    kind: 'secrets',
    severity: 'caution',
    all: [/\b(?:cat|less|head|tail|read|copy|cp|scp|print|dump|base64|tar|zip)\b/i, SECRET_FILE],
    unless: /\.pub\b|\bssh-keygen\b|\bchmod\b/i,
    reason: 'Reads a file that holds keys or credentials (SSH, cloud, browser, wallet).',
  },
  {
    kind: 'secrets',
    severity: 'caution',
    all: [
      /\b(?:enter|paste|type|provide|share|give|send|reveal|export|show)\b/i,
      /\b(?:seed phrase|recovery phrase|mnemonic)\b/i,
    ],
    unless: NEGATED,
    prose: true,
    reason: 'Asks for a wallet seed phrase, which gives full control of the wallet to whoever has it.',
  },
  // Turning off safety.
  {
    kind: 'safety-off',
    severity: 'danger',
    all: [
      /\b(?:ignore|disregard|forget) (?:all |any )?(?:previous|prior|above|earlier|your|other) (?:instructions|rules|guidelines|prompts?)\b/i,
    ],
    unless: NEGATED,
    prose: true,
    reason: 'Tries to override the instructions the agent already follows (prompt injection).',
  },
  {
    kind: 'safety-off',
    severity: 'danger',
    all: [
      /\b(?:disable|bypass|turn off|switch off|circumvent|ignore)\s+(?:the\s+|any\s+|all\s+|your\s+)?(?:safety (?:checks?|filters?|guidelines|guardrails)|guardrails?|sandbox(?:ing)?|antivirus|gatekeeper|(?:windows )?defender|content filters?|system integrity protection)\b/i,
    ],
    unless: NEGATED,
    prose: true,
    reason: 'Tells the agent to turn off a safety check that protects you.',
  },
  {
    kind: 'safety-off',
    severity: 'danger',
    all: [
      /\bxattr\s+-\w*[dc]\w*\b(?:(?!\bxattr\s+-\w*[dc]\w*\b).)*quarantine|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b|Set-MpPreference\s+-Disable|\bhistory\s+-c\b|\bunset\s+HISTFILE\b/i,
    ],
    reason:
      'Removes an OS malware check or wipes the shell history, the moves of software that hides what it does.',
  },
  {
    kind: 'safety-off',
    severity: 'caution',
    all: [/--dangerously-skip-permissions\b|--dangerously-bypass-approvals\w*/i],
    reason: 'Runs an agent with its permission prompts switched off.',
  },
  // Unknown programs.
  {
    kind: 'unknown-binary',
    severity: 'danger',
    all: [/\b(?:extract|unzip|unpack|open)\b.{0,60}\b(?:pass(?:word)?|pwd)\s*[:=]/i],
    readerOnly: true,
    reason:
      'Ships a password-protected archive to run: the password keeps malware scanners out, a common way to spread malware.',
  },
  {
    kind: 'unknown-binary',
    severity: 'danger',
    all: [
      DROP_HOST,
      /\b(?:run|execute|paste|launch)\b.{0,60}\b(?:command|executable|installer|terminal|binary)\b/i,
    ],
    readerOnly: true,
    reason: 'Sends you to a paste site or bare address for a command or program to run: it can be anything.',
  },
  {
    kind: 'unknown-binary',
    severity: 'caution',
    all: [
      /\b(?:download|get|fetch)\b.{0,160}\b(?:and|then)\s+(?:run|execute|launch|open)\s+(?:the|it|this)\b.{0,30}\b(?:executable|binary|installer|\.exe|\.dmg|\.pkg|\.msi|app)\b/i,
    ],
    readerOnly: true,
    reason: 'Asks you to download and run a program that this preview cannot show.',
  },
  {
    kind: 'unknown-binary',
    severity: 'caution',
    all: [
      FETCH,
      /\s-[oO]\s|--output\b|>\s*\S/,
      /chmod\s+(?:\+x|[0-7]*[157][0-7]*)\b.*&&?\s*(?:sudo\s+)?\.?\//,
    ],
    reason: 'Downloads a program and runs it: this preview cannot show what it does.',
  },
  // Servers anyone can stand up for an afternoon.
  {
    kind: 'untrusted-host',
    severity: 'caution',
    all: [TUNNEL_HOST],
    reason:
      'Points the agent at a server on a temporary tunnel or bare address: whoever runs it sees what is sent and can change it at any time.',
  },
  // Instructions that change after review.
  {
    kind: 'remote-instructions',
    severity: 'caution',
    all: [
      FETCH,
      /\b(?:skill|instructions|agents|claude|rules)\.md\b.*(?:\s>\s*\S|\s-[oO]\s|--output|-OutFile)|\bheartbeat\.md\b/i,
    ],
    reason: 'Fetches instructions from the network: they can change after you review this skill.',
  },
];

/** A bold or colon-ended lead-in line, over lines that list what not to do or what to detect. */
export const CONTEXT_LINE =
  /^\s*(?:[-*]\s+)?(?:\*\*|__)[^*_]+(?:\*\*|__):?\s*$|^\s*(?:[-*]\s+)?\S.{0,78}(?::|…|\.\.\.)\s*$/;
export const DOCUMENTARY =
  /\b(?:injections?|attacks?|threats?|malicious|detect\w*|patterns?|red flags?|warning signs?|examples?|anti-?patterns?|must not|do not|don'?t|never|avoid|findings?|evidence|vectors?|scams?|phishing|jailbreaks?|mistakes|pitfalls|risks?|suspicious|look for|watch for|flag)\b|禁止|不要|避免/i;
/** Prose that describes an attack rather than asking for one. */
export const DESCRIBES =
  /\b(?:instructions|attempts?|tries|trying) to\b|\bsuch as\b|\be\.g\.|\bfor example\b/i;
export const HEADING = /^\s{0,3}#{1,6}\s/;

/** True when the match at `index` sits inside a quotation ("…", “…”, `…`). */
export function quotedAt(line: string, index: number): boolean {
  const before = line.slice(0, index);
  const count = (re: RegExp) => (before.match(re) ?? []).length;
  return (
    count(/"/g) % 2 === 1 || count(/`/g) % 2 === 1 || count(/“/g) > count(/”/g) || /['‘]\s*$/.test(before)
  );
}
