import type { ReactNode } from 'react';
import type { ApprovalRequest } from '../../../../../shared/contract';
import { WarningIcon } from '../../../ui/icons';
import { CapabilityList } from '../../install/components/CapabilityList';
import { describeNetwork, describeWiden } from '../queue';
import { TierNote } from './TierNote';
import { UntrustedNote } from './UntrustedNote';

function Fact({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="approval-fact" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Paths({ paths }: { paths: string[] }) {
  if (paths.length === 0) return <span className="approval-fact__none">nothing</span>;
  return (
    <ul className="approval-paths">
      {paths.map((p) => (
        <li key={p}>
          <code>{p}</code>
        </li>
      ))}
    </ul>
  );
}

/** The ids of the command and its folder, for the dialog's `aria-describedby`. */
export const commandIds = (request: Pick<ApprovalRequest, 'id'>) =>
  [`approval-command-${request.id}`, `approval-cwd-${request.id}`] as const;

/** Everything the request says will happen, told exactly (DESIGN §4 approval broker). */
export function ApprovalFacts({ request }: { request: ApprovalRequest }) {
  const [commandId, cwdId] = commandIds(request);
  return (
    <div className="approval-facts">
      <UntrustedNote request={request} />
      {request.widen && (
        <div className="approval-widen" role="note" data-testid="approval-widen">
          <WarningIcon size={16} />
          <span>
            <strong>{request.skill}</strong> {describeWiden(request.widen)}. An earlier run was blocked there.
            “Allow once” grants <code>{request.widen.grant}</code> for this run only; “Always allow this
            skill” adds it to this skill&apos;s grant.
          </span>
        </div>
      )}
      <TierNote request={request} />

      <section className="approval-section" aria-label="Command">
        <h3 className="approval-section__title">Command</h3>
        <pre className="approval-command" id={commandId} data-testid="approval-command">
          {request.command_line}
        </pre>
        <div className="approval-cwd" id={cwdId}>
          in <code data-testid="approval-cwd">{request.cwd}</code>
        </div>
      </section>

      <dl className="approval-grid">
        <Fact label="Reads" testId="approval-reads">
          <Paths paths={request.reads} />
        </Fact>
        <Fact label="Writes" testId="approval-writes">
          <Paths paths={request.writes} />
        </Fact>
        <Fact label="Network" testId="approval-network">
          {describeNetwork(request.network)}
        </Fact>
        <Fact label="Environment" testId="approval-env">
          {request.env.length === 0 ? (
            <span className="approval-fact__none">no variables</span>
          ) : (
            <span className="approval-env">
              {request.env.map((name) => (
                <code key={name}>{name}</code>
              ))}
            </span>
          )}
        </Fact>
      </dl>

      {request.reasons.length > 0 && (
        <section className="approval-section" aria-label="Why it asks">
          <h3 className="approval-section__title">Why you are asked</h3>
          <ul className="approval-reasons" data-testid="approval-reasons">
            {request.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </section>
      )}

      {request.summary.length > 0 && (
        <section className="approval-section sheet capabilities" aria-label="What the skill declares">
          <h3 className="sheet__title">What it declares it will do</h3>
          <CapabilityList lines={request.summary} />
        </section>
      )}
    </div>
  );
}
