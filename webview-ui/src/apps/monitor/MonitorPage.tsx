// A project's charts over a range: the range, stride and grouping chosen at the top, the charts in one column under
// their sections. A new choice asks the host for the charts again; while it loads (or when it fails) the last charts
// stay. A click on a point opens the runs behind it.
import { useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import {
  Load,
  OpenRuns,
  PRESET_MS,
  strideFor,
  strideMs,
  stridesFor,
  type GroupBy,
  type MonitorState,
  type Query,
  type RangePreset,
  type Stride,
} from '../../../../src/protocol/monitor';
import { useAppState, useRequest } from '../../common/app';
import { Banner, Button, ProgressRing, TextButton } from '../../common/components';
import { KeysHelp } from '../../common/components/KeysHelp';
import { isTyping, useKeysHelp, usePageKeys } from '../../common/keys';
import { ChartCard } from './ChartCard';
import { type RunsTarget, fromLocalInput, hasRuns, RANGE_LABELS, runsTarget, seriesRuns, strideLabel, toLocalInput } from './model';

type Monitoring = Extract<MonitorState, { kind: 'monitor' }>;

/** The page's grouping choices; "model" is LangSmith's `ls_model_name` metadata. */
type GroupChoice = 'none' | 'name' | 'run_type' | 'tag' | 'metadata' | 'model';
const GROUPS: { value: GroupChoice; label: string }[] = [
  { value: 'none', label: 'No grouping' },
  { value: 'name', label: 'Run name' },
  { value: 'run_type', label: 'Run type' },
  { value: 'tag', label: 'Tag' },
  { value: 'metadata', label: 'Metadata key' },
  { value: 'model', label: 'Model' },
];
const MODEL_KEY = 'ls_model_name';

function groupChoiceOf(g: GroupBy | null): GroupChoice {
  if (!g) return 'none';
  if (g.attribute === 'metadata') return g.path === MODEL_KEY ? 'model' : 'metadata';
  return g.attribute;
}

function groupByOf(choice: GroupChoice, metadataKey: string): GroupBy | null {
  if (choice === 'none') return null;
  if (choice === 'model') return { attribute: 'metadata', path: MODEL_KEY };
  if (choice === 'metadata') return metadataKey.trim() ? { attribute: 'metadata', path: metadataKey.trim().slice(0, 200) } : null;
  return { attribute: choice, path: null };
}

const sameStride = (a: Stride, b: Stride) => strideMs(a) === strideMs(b);
const timezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const KEYS = [
  ['Tab', 'Move from chart to chart'],
  ['← →', 'Read the previous or next bucket of the focused chart'],
  ['↑ ↓', 'Read the previous or next series'],
  ['Home End', 'The first or last bucket'],
  ['Enter', 'Open the runs of the bucket and series read'],
  ['?', 'Show or hide these keys'],
] as const;

export function MonitorPage({ state }: { state: Monitoring }) {
  const [, setState] = useAppState<MonitorState>();
  const { dashboard, project } = state;
  const query = dashboard.query;
  const load = useRequest(Load);
  const open = useRequest(OpenRuns);
  const [error, setError] = useState<string>();
  const [metadataKey, setMetadataKey] = useState(query.groupBy?.attribute === 'metadata' && query.groupBy.path !== MODEL_KEY ? (query.groupBy.path ?? '') : '');
  const [groupChoice, setGroupChoice] = useState<GroupChoice>(groupChoiceOf(query.groupBy));
  const [customFrom, setCustomFrom] = useState(() => toLocalInput(query.startTime));
  const [customTo, setCustomTo] = useState(() => toLocalInput(query.endTime));
  const [showCustom, setShowCustom] = useState(query.range === 'custom');
  const help = useKeysHelp();

  usePageKeys((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing || isTyping(e.target)) return;
    help.handle(e);
  });

  async function ask(next: Query) {
    setError(undefined);
    const result = await load.run(next);
    if (result.ok) setState((prev) => (prev.kind === 'monitor' ? { ...prev, dashboard: result.value } : prev));
    else if (result.error.code !== 'cancelled') setError(result.error.message);
  }

  function chooseRange(range: RangePreset) {
    if (range === 'custom') {
      setShowCustom(true);
      return;
    }
    setShowCustom(false);
    const span = PRESET_MS[range];
    const now = Date.now();
    void ask({ ...query, range, startTime: now - span, endTime: now, stride: strideFor(span), timezone: timezone() });
  }

  function applyCustom() {
    const start = fromLocalInput(customFrom);
    const end = fromLocalInput(customTo);
    if (start === null || end === null || end <= start) {
      setError('Choose a start before the end.');
      return;
    }
    void ask({ ...query, range: 'custom', startTime: start, endTime: end, stride: strideFor(end - start), timezone: timezone() });
  }

  function chooseStride(value: string) {
    const span = query.endTime - query.startTime;
    const stride = value === 'auto' ? strideFor(span) : stridesFor(span)[Number(value)];
    if (stride) void ask({ ...query, range: query.range, stride, ...moved(query) });
  }

  function chooseGroup(choice: GroupChoice, key = metadataKey) {
    setGroupChoice(choice);
    const groupBy = groupByOf(choice, key);
    // A metadata key is asked for once one is typed.
    if (choice === 'metadata' && !groupBy) return;
    void ask({ ...query, groupBy, ...moved(query) });
  }

  function onMetadataKey(e: ReactKeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') chooseGroup('metadata', (e.target as HTMLInputElement).value);
  }

  async function openRuns(target: RunsTarget) {
    setError(undefined);
    const result = await open.run(target);
    if (!result.ok && result.error.code !== 'cancelled') setError(result.error.message);
  }

  const span = query.endTime - query.startTime;
  const strides = stridesFor(span);
  const auto = strideFor(span);
  const strideValue = sameStride(query.stride, auto) ? 'auto' : String(strides.findIndex((s) => sameStride(s, query.stride)));
  const empty = !hasRuns(dashboard.charts);
  let section: string | undefined;

  return (
    <main className="mon-page" aria-busy={load.pending}>
      <header className="mon-header">
        <h1 className="mon-title">
          Monitor: <span className="mon-project">{project.name}</span>
        </h1>
        <div className="mon-controls" role="group" aria-label="Range, stride and grouping">
          <label className="mon-control">
            <span>Range</span>
            <select className="lsw-input" value={showCustom ? 'custom' : query.range} onChange={(e) => chooseRange(e.target.value as RangePreset)} data-testid="range">
              {(Object.keys(RANGE_LABELS) as RangePreset[]).map((r) => (
                <option key={r} value={r}>
                  {RANGE_LABELS[r]}
                </option>
              ))}
            </select>
          </label>
          <label className="mon-control">
            <span>Every</span>
            <select className="lsw-input" value={strideValue} onChange={(e) => chooseStride(e.target.value)} data-testid="stride">
              <option value="auto">Auto ({strideLabel(auto)})</option>
              {strides.map((s, i) => (
                <option key={i} value={String(i)}>
                  {strideLabel(s)}
                </option>
              ))}
            </select>
          </label>
          <label className="mon-control">
            <span>Group by</span>
            <select className="lsw-input" value={groupChoice} onChange={(e) => chooseGroup(e.target.value as GroupChoice)} data-testid="group">
              {GROUPS.map((g) => (
                <option key={g.value} value={g.value}>
                  {g.label}
                </option>
              ))}
            </select>
          </label>
          {groupChoice === 'metadata' && (
            <label className="mon-control">
              <span>Key</span>
              <input
                className="lsw-input"
                value={metadataKey}
                placeholder="e.g. customer_tier"
                maxLength={200}
                onChange={(e) => setMetadataKey(e.target.value)}
                onKeyDown={onMetadataKey}
                onBlur={() => metadataKey.trim() && metadataKey.trim() !== query.groupBy?.path && chooseGroup('metadata')}
                data-testid="metadata-key"
              />
            </label>
          )}
          {load.pending && <ProgressRing />}
          <TextButton onClick={help.toggle}>Keys</TextButton>
        </div>
        {showCustom && (
          <div className="mon-controls" role="group" aria-label="Custom range">
            <label className="mon-control">
              <span>From</span>
              <input className="lsw-input" type="datetime-local" value={customFrom} onChange={(e) => setCustomFrom(e.target.value)} data-testid="from" />
            </label>
            <label className="mon-control">
              <span>To</span>
              <input className="lsw-input" type="datetime-local" value={customTo} onChange={(e) => setCustomTo(e.target.value)} data-testid="to" />
            </label>
            <Button onClick={applyCustom} data-testid="apply-custom">
              Apply
            </Button>
          </div>
        )}
        {help.open && <KeysHelp keys={KEYS} onClose={help.close} />}
        {error !== undefined && (
          <Banner tone="error" data-testid="error">
            {error}
          </Banner>
        )}
      </header>
      {empty ? (
        <section className="mon-empty" data-testid="empty">
          <p>
            No runs in {project.name} {query.range === 'custom' ? 'in this range' : `in the ${RANGE_LABELS[query.range].toLowerCase()}`}.
          </p>
          {query.range !== '30d' && (
            <Button onClick={() => chooseRange('30d')} data-testid="longer">
              Show the last 30 days
            </Button>
          )}
        </section>
      ) : (
        <div className={`mon-charts${load.pending ? ' mon-loading' : ''}`} data-testid="charts">
          {dashboard.charts.map((chart, i) => {
            const heading = chart.section !== section ? chart.section : undefined;
            section = chart.section;
            return (
              <div key={`${chart.id}/${i}`} className="mon-chart-slot">
                {heading !== undefined && <h2 className="mon-section">{heading}</h2>}
                <ChartCard
                  chart={chart}
                  times={dashboard.times}
                  query={query}
                  onPick={(series, index) => void openRuns(runsTarget(chart, { series: chart.series[series]!, time: dashboard.times[index]! }, query.stride, query.endTime))}
                  onPickSeries={(series) => void openRuns({ ...seriesRuns(chart, chart.series[series]!), startTime: query.startTime, endTime: query.endTime })}
                />
              </div>
            );
          })}
        </div>
      )}
    </main>
  );
}

/** A preset's window moved up to now, so a new stride or grouping reads what is current. */
function moved(q: Query): Pick<Query, 'startTime' | 'endTime'> {
  if (q.range === 'custom') return { startTime: q.startTime, endTime: q.endTime };
  const now = Date.now();
  return { startTime: now - PRESET_MS[q.range], endTime: now };
}
