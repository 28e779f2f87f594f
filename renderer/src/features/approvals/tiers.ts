import type { RunSandbox } from '../../../../shared/contract';
import type { Tone } from '../../ui/Badge';

export interface TierInfo {
  /** Short, for badges. */
  label: string;
  /** One or two plain sentences: what holds the command to its rules here. */
  explain: string;
  /** False when file and network rules are not enforced (what-users-ask #12: say so). */
  enforced: boolean;
  tone: Tone;
}

/** DESIGN §4 sandbox tiers, told plainly; the window always says which one ran. */
export const TIERS: Record<RunSandbox, TierInfo> = {
  bwrap: {
    label: 'bubblewrap',
    explain:
      'A Linux sandbox: the system is read-only, your home folder and /tmp are hidden, it can write only the paths listed, the network is off unless hosts are listed, and only the variables listed are passed in.',
    enforced: true,
    tone: 'green',
  },
  seatbelt: {
    label: 'sandbox-exec',
    explain:
      'The macOS sandbox holds it to the paths, hosts and variables listed; everything else is refused by the OS.',
    enforced: true,
    tone: 'green',
  },
  process: {
    label: 'process only',
    explain:
      'No OS sandbox on this machine: it runs as you, in its own process group with a clean environment and a time limit; file and network rules are not enforced.',
    enforced: false,
    tone: 'amber',
  },
  none: {
    label: 'no sandbox',
    explain: 'No sandbox: it runs as you, with everything your user account can reach.',
    enforced: false,
    tone: 'red',
  },
};

/** For runs where nothing was executed (a direct skill's template, a denied run). */
export const NOTHING_RAN = 'nothing ran';
