// One line per experiment: the baseline choice, its name and source, feedback averages per key with the change
// against the baseline (and the rows that regressed or improved on that key, each a filter), errors, latency,
// tokens and cost. Colour says the direction, the ▲ ▼ and the words say it too.
import type { Experiment, FeedbackKey } from '../../../../src/protocol/compare';
import { TextButton } from '../../common/components';
import { changeOf, formatCost, formatCount, formatDelta, formatInt, formatPercent, formatScore, formatSeconds, markOf, MARK_GLYPH, MARK_TEXT, own, type Analysis, type Filter } from './model';

interface Props {
  experiments: readonly Experiment[];
  keys: readonly FeedbackKey[];
  analysis: Analysis;
  baselineId: string;
  onBaseline(experimentId: string): void;
  onFilter(filter: Filter): void;
  onOpen(experimentId: string): void;
}

export function Summary({ experiments, keys, analysis, baselineId, onBaseline, onFilter, onOpen }: Props) {
  const base = experiments[analysis.baseline];
  return (
    <div className="cmp-summary-scroll">
      <table className="cmp-summary" data-testid="summary">
        <caption className="cmp-sr">Experiments compared, against the baseline</caption>
        <thead>
          <tr>
            <th scope="col">Baseline</th>
            <th scope="col">Experiment</th>
            <th scope="col">Changes</th>
            {keys.map((k, i) => (
              <th scope="col" key={i} title={k.lowerIsBetter ? 'Lower is better' : 'Higher is better'}>
                <span dir="auto">{k.key}</span> <span className="lsw-muted">{k.lowerIsBetter ? '(lower is better)' : ''}</span>
              </th>
            ))}
            <th scope="col">Errors</th>
            <th scope="col">Latency p50 / p99</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {experiments.map((x, e) => {
            const isBase = e === analysis.baseline;
            const counts = analysis.counts[e]!;
            return (
              <tr key={e} className={isBase ? 'cmp-base-row' : undefined} data-testid="summary-row">
                <td>
                  <label className="cmp-radio">
                    <input type="radio" name="cmp-baseline" checked={x.id === baselineId && isBase} onChange={() => onBaseline(x.id)} data-testid="baseline-radio" aria-label={`Baseline: ${x.name}`} />
                    {isBase && <span className="lsw-muted">baseline</span>}
                  </label>
                </td>
                <th scope="row" className="cmp-exp-name">
                  <span className="cmp-name" dir="auto" data-testid="experiment-name">
                    {x.name}
                  </span>
                  {x.source !== null && (
                    <span className="cmp-source lsw-muted" dir="auto" data-testid="experiment-source">
                      {x.source}
                    </span>
                  )}
                  <span className="cmp-meta lsw-muted">
                    {formatInt(x.runCount)} {x.runCount === 1 ? 'run' : 'runs'}
                    {x.url !== null && (
                      <>
                        {' · '}
                        <TextButton onClick={() => onOpen(x.id)} data-testid="open-experiment">
                          Open in LangSmith
                        </TextButton>
                      </>
                    )}
                  </span>
                </th>
                <td>
                  {isBase ? (
                    <span className="lsw-muted">–</span>
                  ) : (
                    <span className="cmp-counts">
                      <CountButton kind="regressions" n={counts.regressions} onClick={() => onFilter({ kind: 'regressions', experimentId: x.id, key: null })} testId="summary-regressions" />
                      <CountButton kind="improvements" n={counts.improvements} onClick={() => onFilter({ kind: 'improvements', experimentId: x.id, key: null })} testId="summary-improvements" />
                    </span>
                  )}
                </td>
                {keys.map((k, ki) => {
                  const fb = own(x.feedback, k.key);
                  const baseAvg = base ? own(base.feedback, k.key)?.avg : undefined;
                  const mark = isBase ? null : markOf(fb?.avg, baseAvg, k.lowerIsBetter);
                  const change = isBase ? null : changeOf(fb?.avg, baseAvg, k.lowerIsBetter);
                  const perKey = counts.perKey[ki]!;
                  return (
                    <td key={ki} data-testid="summary-key">
                      <span className="cmp-avg" data-testid="avg">
                        {formatScore(fb?.avg)}
                      </span>{' '}
                      {fb && <span className="lsw-muted">(n={formatInt(fb.n)})</span>}
                      {mark !== null && change !== null && (
                        <span className={`cmp-delta cmp-${mark}`} data-testid="delta" data-mark={mark}>
                          {' '}
                          <span aria-hidden="true">{MARK_GLYPH[mark]}</span> {formatDelta(typeof fb?.avg === 'number' && typeof baseAvg === 'number' ? fb.avg - baseAvg : 0)} {MARK_TEXT[mark]}
                        </span>
                      )}
                      {!isBase && (perKey.regressions > 0 || perKey.improvements > 0) && (
                        <span className="cmp-counts cmp-key-counts">
                          <CountButton kind="regressions" n={perKey.regressions} onClick={() => onFilter({ kind: 'regressions', experimentId: x.id, key: k.key })} testId="key-regressions" short />
                          <CountButton kind="improvements" n={perKey.improvements} onClick={() => onFilter({ kind: 'improvements', experimentId: x.id, key: k.key })} testId="key-improvements" short />
                        </span>
                      )}
                    </td>
                  );
                })}
                <td>
                  {formatPercent(x.errorRate)}
                  {counts.errors > 0 && (
                    <>
                      {' '}
                      <TextButton onClick={() => onFilter({ kind: 'errors', experimentId: x.id, key: null })} data-testid="summary-errors" title="Show the rows where this experiment's run errored">
                        {formatInt(counts.errors)} {counts.errors === 1 ? 'row' : 'rows'}
                      </TextButton>
                    </>
                  )}
                </td>
                <td className="cmp-nowrap">
                  {formatSeconds(x.latencyP50)} / {formatSeconds(x.latencyP99)}
                </td>
                <td>{formatCount(x.totalTokens)}</td>
                <td>{formatCost(x.totalCost)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A count of regressions or improvements that filters the grid to those rows when clicked. */
export function CountButton({ kind, n, onClick, testId, short }: { kind: 'regressions' | 'improvements'; n: number; onClick(): void; testId: string; short?: boolean }) {
  const mark = kind === 'regressions' ? 'worse' : 'better';
  const word = kind === 'regressions' ? (n === 1 ? 'regression' : 'regressions') : n === 1 ? 'improvement' : 'improvements';
  return (
    <TextButton className={`cmp-count cmp-${mark}`} onClick={onClick} disabled={n === 0} data-testid={testId} data-n={n} title={`Show the ${formatInt(n)} ${word}`}>
      <span aria-hidden="true">{MARK_GLYPH[mark]}</span> {formatInt(n)}
      {short ? <span className="cmp-sr"> {word}</span> : ` ${word}`}
    </TextButton>
  );
}
