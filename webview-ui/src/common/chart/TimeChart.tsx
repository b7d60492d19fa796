// A chart of values over time (uPlot on a canvas): lines, or bars stacked per bucket. Colours come from the VS Code
// theme (`--vscode-charts-*`, the foreground, the widget border for the grid) and are read again when the theme
// changes. Hovering shows a tooltip with the bucket's time and every series' value; a click, or Enter on the
// focused chart, picks the series nearest the pointer at that bucket. The chart is one tab stop: ←/→ (Home/End)
// move through the buckets, ↑/↓ through the series, and what is under the cursor is announced.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './chart.css';

export interface ChartSeries {
  name: string;
  /** Aligned with the chart's times; null where the bucket has no value. */
  values: readonly (number | null)[];
  /** Its colour's place in the theme's palette (default: the series' own place). */
  colour?: number;
  /** A line's pattern: 0 solid (default), 1 dashed, 2 dotted — to tell apart series of one colour. */
  dash?: 0 | 1 | 2;
}

const DASHES: Record<0 | 1 | 2, number[] | undefined> = { 0: undefined, 1: [6, 3], 2: [2, 3] };

/** The classes of a series' swatch (its colour, and its pattern for a dashed line). */
export function swatchClass(s: Pick<ChartSeries, 'colour' | 'dash'>, index: number): string {
  const colour = `lsw-chart-c${(s.colour ?? index) % PALETTE_SIZE}`;
  return s.dash ? `lsw-chart-swatch lsw-chart-swatch-line lsw-chart-dash${s.dash} ${colour}` : `lsw-chart-swatch ${colour}`;
}

export interface TimeChartProps {
  /** The chart's accessible name (its title). */
  label: string;
  /** The buckets' start times, ascending, in milliseconds. */
  times: readonly number[];
  series: readonly ChartSeries[];
  kind: 'line' | 'bar';
  formatValue(value: number | null): string;
  formatTick(value: number): string;
  formatTime(time: number): string;
  /** A point was picked (clicked, or Enter): the series and the bucket's index. */
  onPick?(series: number, index: number): void;
  height?: number;
  /** The legend under the chart (default: when there are two series or more); off when the page draws its own. */
  legend?: boolean;
  testId?: string;
}

/** How many colours the theme gives; a series' colour is its index modulo this (the legend's class says the same). */
export const PALETTE_SIZE = 6;
const PALETTE_VARS = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];
const PALETTE_FALLBACK = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];

interface Theme {
  palette: string[];
  text: string;
  grid: string;
  font: string;
}

function readTheme(): Theme {
  const root = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => root.getPropertyValue(name).trim() || fallback;
  const body = getComputedStyle(document.body);
  return {
    palette: PALETTE_VARS.map((name, i) => v(name, PALETTE_FALLBACK[i]!)),
    text: v('--vscode-descriptionForeground', v('--vscode-foreground', body.color)),
    grid: v('--vscode-editorWidget-border', v('--vscode-widget-border', v('--vscode-panel-border', '#8884'))),
    font: `11px ${v('--vscode-font-family', body.fontFamily)}`,
  };
}

/** The theme's colours, read again when VS Code changes the theme (the body's class, the root's variables). */
function useTheme(): Theme {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(readTheme()));
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/** Bars of a bucket stack: each series drawn at the sum of itself and those before it. */
function stacked(series: readonly ChartSeries[], n: number): (number | null)[][] {
  const sums = new Array<number>(n).fill(0);
  return series.map((s) =>
    Array.from({ length: n }, (_, i) => {
      const v = s.values[i];
      if (v === null || v === undefined) return null;
      sums[i]! += v;
      return sums[i]!;
    }),
  );
}

interface Hover {
  index: number;
  series: number;
  left: number;
  top: number;
}

export function TimeChart(props: TimeChartProps) {
  const { label, times, series, kind, height = 180, testId, legend = series.length > 1 } = props;
  const theme = useTheme();
  const holder = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot>();
  const [hover, setHover] = useState<Hover | null>(null);
  const [announce, setAnnounce] = useState('');
  const latest = useRef(props);
  latest.current = props;
  const drawn = useMemo(() => (kind === 'bar' ? stacked(series, times.length) : series.map((s) => [...s.values])), [kind, series, times.length]);
  const shown = useRef(drawn);
  shown.current = drawn;

  /** The series nearest the pointer at a bucket: the bar segment it is in, or the line closest to it. */
  const nearest = (u: uPlot, index: number, top: number): number => {
    const rows = shown.current;
    if (kind === 'bar') {
      const y = u.posToVal(top, 'y');
      let below = 0;
      for (let s = 0; s < rows.length; s++) {
        const v = rows[s]![index];
        if (v === null || v === undefined) continue;
        if (y >= below && y <= v) return s;
        below = v;
      }
    }
    let best = 0;
    let bestDistance = Infinity;
    rows.forEach((row, s) => {
      const v = row[index];
      if (v === null || v === undefined) return;
      const d = Math.abs(u.valToPos(v, 'y') - top);
      if (d < bestDistance) [best, bestDistance] = [s, d];
    });
    return best;
  };

  useEffect(() => {
    const el = holder.current;
    if (!el) return undefined;
    const bars = uPlot.paths.bars!({ size: [0.7, 40], align: 0 });
    // Stacked bars: the tallest sum first, so each shorter one is drawn over it.
    const order = kind === 'bar' ? series.map((_, i) => series.length - 1 - i) : series.map((_, i) => i);
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      ms: 1,
      legend: { show: false },
      cursor: {
        x: true,
        y: false,
        points: { show: kind === 'line' },
        drag: { x: false, y: false, setScale: false },
      },
      scales: {
        // Bars are centred on their bucket: half a bucket of room at each end so the first and last are whole.
        x: { time: true, ...(kind === 'bar' && times.length > 1 ? { range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => [min - (times[1]! - times[0]!) / 2, max + (times[1]! - times[0]!) / 2] } : {}) },
        y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.08 : 1] } },
      axes: [
        { stroke: theme.text, font: theme.font, grid: { stroke: theme.grid, width: 1 }, ticks: { stroke: theme.grid, width: 1 }, space: 70 },
        {
          stroke: theme.text,
          font: theme.font,
          grid: { stroke: theme.grid, width: 1 },
          ticks: { show: false },
          size: 52,
          space: 30,
          values: (_u, splits) => splits.map((v) => latest.current.formatTick(v)),
        },
      ],
      series: [
        {},
        ...order.map((i) => {
          const s = series[i]!;
          const colour = theme.palette[(s.colour ?? i) % PALETTE_SIZE]!;
          return kind === 'bar'
            ? { label: s.name, stroke: colour, fill: colour, width: 0, paths: bars, points: { show: false } }
            : { label: s.name, stroke: colour, width: 1.5, dash: DASHES[s.dash ?? 0], spanGaps: false, points: { show: times.length <= 2, size: 5 } };
        }),
      ],
      hooks: {
        setCursor: [
          (u) => {
            const index = u.cursor.idx;
            const left = u.cursor.left ?? -1;
            const top = u.cursor.top ?? -1;
            if (index === null || index === undefined || left < 0) setHover(null);
            else setHover({ index, series: nearest(u, index, top), left, top });
          },
        ],
      },
    };
    const data = [times as number[], ...order.map((i) => shown.current[i]!)] as uPlot.AlignedData;
    const u = new uPlot(opts, data, el);
    plot.current = u;
    const click = () => {
      const index = u.cursor.idx;
      if (index === null || index === undefined) return;
      latest.current.onPick?.(nearest(u, index, u.cursor.top ?? 0), index);
    };
    u.over.addEventListener('click', click);
    const resize = new ResizeObserver(() => {
      const width = Math.max(200, el.clientWidth);
      if (width !== u.width) u.setSize({ width, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
      plot.current = undefined;
    };
    // The plot is rebuilt for new data, a new kind or a new theme; formatters are read through `latest`
  }, [times, drawn, kind, theme, height]);

  // The tooltip follows the cursor, kept inside the plot (a position set through the CSSOM, which the CSP allows).
  useEffect(() => {
    const u = plot.current;
    const t = tip.current;
    const f = frame.current;
    if (!u || !t || !f || !hover) return;
    const box = f.getBoundingClientRect();
    const over = u.over.getBoundingClientRect();
    const plotLeft = over.left - box.left;
    const plotTop = over.top - box.top;
    const x = hover.left + plotLeft + 12 + t.offsetWidth > box.width ? hover.left + plotLeft - 12 - t.offsetWidth : hover.left + plotLeft + 12;
    const y = Math.max(0, Math.min(hover.top + plotTop - t.offsetHeight / 2, height - t.offsetHeight));
    t.style.transform = `translate(${Math.max(0, x)}px, ${y}px)`;
  }, [hover, height]);

  const describe = (index: number, s: number) => {
    const p = latest.current;
    const one = p.series[s];
    return one ? `${p.formatTime(p.times[index]!)}: ${one.name} ${p.formatValue(one.values[index] ?? null)}` : '';
  };

  const moveTo = (index: number, s: number) => {
    const u = plot.current;
    if (!u || times.length === 0) return;
    const i = Math.max(0, Math.min(times.length - 1, index));
    const row = shown.current[s];
    const v = row?.[i];
    const left = u.valToPos(times[i]!, 'x');
    const top = v === null || v === undefined ? u.over.clientHeight / 2 : u.valToPos(v, 'y');
    u.setCursor({ left, top });
    setHover({ index: i, series: s, left, top });
    setAnnounce(describe(i, s));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = hover ?? { index: -1, series: 0 };
    const last = times.length - 1;
    const keys: Record<string, () => void> = {
      ArrowRight: () => moveTo(at.index < 0 ? 0 : at.index + 1, at.series),
      ArrowLeft: () => moveTo(at.index < 0 ? last : at.index - 1, at.series),
      Home: () => moveTo(0, at.series),
      End: () => moveTo(last, at.series),
      ArrowDown: () => moveTo(Math.max(0, at.index), (at.series + 1) % Math.max(1, series.length)),
      ArrowUp: () => moveTo(Math.max(0, at.index), (at.series - 1 + series.length) % Math.max(1, series.length)),
      Enter: () => {
        if (at.index >= 0) props.onPick?.(at.series, at.index);
      },
    };
    const run = keys[e.key];
    if (!run || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    run();
  };

  const shownIndex = hover?.index ?? -1;
  return (
    <div className="lsw-chart" data-testid={testId}>
      <div
        className="lsw-chart-plot"
        ref={frame}
        tabIndex={0}
        role="img"
        aria-roledescription="chart"
        aria-label={`${label}. Use the arrow keys to read the values, Enter to open the runs.`}
        onKeyDown={onKeyDown}
        onMouseLeave={() => setHover(null)}
        onBlur={() => setHover(null)}
      >
        <div ref={holder} />
        <div className={`lsw-chart-tip${hover ? '' : ' lsw-chart-tip-hidden'}`} ref={tip} role="tooltip" data-testid="chart-tooltip">
          {shownIndex >= 0 && (
            <>
              <div className="lsw-chart-tip-time">{props.formatTime(times[shownIndex]!)}</div>
              {series.map((s, i) => (
                <div key={i} className={`lsw-chart-tip-row${hover?.series === i ? ' lsw-chart-tip-focus' : ''}`}>
                  <span className={swatchClass(s, i)} />
                  <span className="lsw-chart-tip-name">{s.name}</span>
                  <span className="lsw-chart-tip-value">{props.formatValue(s.values[shownIndex] ?? null)}</span>
                </div>
              ))}
            </>
          )}
        </div>
      </div>
      <div className="lsw-visually-hidden" aria-live="polite">
        {announce}
      </div>
      {legend && (
        <ul className="lsw-chart-legend" aria-label={`${label}: series`}>
          {series.map((s, i) => (
            <li key={i}>
              <span className={swatchClass(s, i)} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
