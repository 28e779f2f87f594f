import type { ReactNode } from 'react';
import {
  CheckIcon,
  EyeIcon,
  GlobeIcon,
  InfoIcon,
  KeyIcon,
  PencilIcon,
  PlayIcon,
  WarningIcon,
} from '../../../ui/icons';
import { capabilityKind, isSensitive, type CapabilityKind } from '../model';
import '../install.css';
import '../preview.css';
import '../outcome.css';

const ICONS: Record<CapabilityKind, ReactNode> = {
  run: <PlayIcon size={14} />,
  write: <PencilIcon size={14} />,
  read: <EyeIcon size={14} />,
  network: <GlobeIcon size={14} />,
  env: <KeyIcon size={14} />,
  danger: <WarningIcon size={14} />,
  none: <CheckIcon size={14} />,
  other: <InfoIcon size={14} />,
};

/** The plain-language capability lines, with sensitive ones marked (the install preview, the approval dialog). */
export function CapabilityList({ lines }: { lines: readonly string[] }) {
  return (
    <ul className="capabilities__list">
      {lines.map((line) => {
        const kind = capabilityKind(line);
        return (
          <li
            key={line}
            className={`capability capability--${kind}${isSensitive(kind) ? ' is-sensitive' : ''}`}
            data-testid="capability"
            data-kind={kind}
          >
            <span className="capability__icon">{ICONS[kind]}</span>
            <span className="capability__text">{line}</span>
          </li>
        );
      })}
    </ul>
  );
}
