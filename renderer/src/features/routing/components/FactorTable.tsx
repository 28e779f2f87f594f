import type { Factors } from '../../../../../shared/contract';
import { FACTOR_META, FACTOR_NAMES } from '../factors';
import { formatContribution, formatScore } from '../format';

/** The same numbers as a table, for the expanded row and "why not". */
export function FactorTable({ factors }: { factors: Factors }) {
  const rows = FACTOR_NAMES.map((name) => ({ name, ...factors[name] }));
  const total = rows.reduce((sum, row) => sum + row.contribution, 0);
  return (
    <table className="factor-table" data-testid="factor-table">
      <thead>
        <tr>
          <th>Factor</th>
          <th>Value</th>
          <th>Weight</th>
          <th>Contribution</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name} data-factor={row.name} title={FACTOR_META[row.name].description}>
            <td>
              <span className={`factor-swatch factor-${row.name}`} />
              {FACTOR_META[row.name].label}
            </td>
            <td>{formatScore(row.value)}</td>
            <td>{formatScore(row.weight)}</td>
            <td>{formatContribution(row.contribution)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td>Score</td>
          <td />
          <td />
          <td>{formatContribution(total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
