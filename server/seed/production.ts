// The monitoring demo: a project `demo-production` with 100,000 runs over the 30 days before the seed, written in
// one transaction through one prepared statement per table (a run's derived columns worked out here, so the
// ingest triggers skip it). Its own seeded generator: every seed gives the same runs at the same offsets from
// the seed's hour.
//
// Time: the seed's hour is the current time floored to the UTC hour; day k (0–29) is the 24 hours that end k×24 h
// before it (day 0 the last 24 hours, day 29 the first), and its hours 0–23 count from its start.
// - A daily rhythm: traces come ~5 times as often at the day's hour 15 as at its quietest hours.
// - An error spike: day 10, hours 14, 15 and 16 (ERROR_SPIKE): 40 % of the traces fail (rate limits), ~3 % elsewhere.
// - A latency regression: days 6, 5 and 4 (LATENCY_REGRESSION): every LLM call takes 2.5 times as long.
// 50,000 traces, by their index modulo 3: a lone `llm` root run; a `support_agent` chain with an LLM call and a
// tool call; a `rag_answer` or `summarize_ticket` chain with an LLM call (16,667 + 50,001 + 33,332 runs). Models
// (metadata `ls_model_name` and `model`, on the LLM call and on its root) with their own speed and price; tags
// `prod`, `canary`, `beta`; token counts and costs (`usage_metadata` in the LLM call's outputs); 70 % of LLM calls
// streamed (a `new_token` event); feedback: `user_score` (0/1, from users) on 10 % of the traces, `correctness`
// (0–1, from an evaluator, feedback_source `model`) on 20 %.
import type { Ctx, Tenant } from '../context';
import { sessionByName } from '../store/sessions';
import { rng, type Rng } from './random';

export const PRODUCTION_PROJECT = 'demo-production';
export const PRODUCTION_TRACES = 50_000;
export const PRODUCTION_RUNS = 100_000;
const DAYS = 30;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Day 10 (counted back from the seed's hour), hours 14 to 16. */
export const ERROR_SPIKE = { day: 10, fromHour: 14, toHour: 17, errorRate: 0.4 } as const;
/** Days 6, 5 and 4: LLM calls 2.5 times slower. */
export const LATENCY_REGRESSION = { days: [6, 5, 4], factor: 2.5 } as const;
const BASE_ERROR_RATE = 0.03;

/** The seed's hour: the time the days are counted back from. */
export const productionAnchor = (now: number) => Math.floor(now / HOUR) * HOUR;
/** The start of day k (0 = the last 24 hours before the anchor). */
export const productionDayStart = (anchor: number, day: number) => anchor - (day + 1) * DAY;

const MODELS = [
  { name: 'gpt-4o-mini', provider: 'openai', weight: 0.45, ms: 900, inPrice: 0.15e-6, outPrice: 0.6e-6 },
  { name: 'gpt-4o', provider: 'openai', weight: 0.3, ms: 2200, inPrice: 2.5e-6, outPrice: 10e-6 },
  { name: 'claude-3-5-sonnet', provider: 'anthropic', weight: 0.15, ms: 2600, inPrice: 3e-6, outPrice: 15e-6 },
  { name: 'llama-3.1-70b', provider: 'fireworks', weight: 0.1, ms: 1400, inPrice: 0.9e-6, outPrice: 0.9e-6 },
] as const;
const TOOLS = ['search_docs', 'lookup_order', 'refund_policy'] as const;
const ERRORS = ['TimeoutError: the model did not answer within 30 s', 'ValidationError: output did not match the schema', 'ToolException: order service unavailable'];
const SPIKE_ERROR = 'RateLimitError: 429 Too Many Requests (tokens per minute exceeded)';
const QUESTIONS = ['Where is my order?', 'How do I get a refund?', 'Can I change my shipping address?', 'Is the blue jacket in stock?', 'Summarize this ticket'];

/** The minute of the day a trace starts at, drawn with the daily rhythm (an inverse CDF over the day's minutes). */
function rhythm(): (u: number) => number {
  const cdf = new Float64Array(1440);
  let sum = 0;
  for (let m = 0; m < 1440; m++) {
    const h = m / 60;
    sum += 0.25 + Math.exp(-((h - 15) ** 2) / (2 * 3.5 ** 2));
    cdf[m] = sum;
  }
  return (u) => {
    const x = u * sum;
    let lo = 0;
    let hi = 1439;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * A time-ordered UUID (version 7 form: the start's milliseconds, then bits from the generator), as current SDKs
 * make run ids: the same seed gives the same ids, and runs written in time order append to the id indexes.
 */
function uuid7(r: Rng, ms: number): string {
  const t = ms.toString(16).padStart(12, '0');
  // Drawn in this order: the variant's bits, then four groups of 16 bits.
  const v = Math.floor(r.next() * 0x4000) | 0x8000;
  const hex = (HEX4 ??= Array.from({ length: 0x10000 }, (_, i) => i.toString(16).padStart(4, '0')));
  const a = hex[Math.floor(r.next() * 0x10000)]!;
  const b = hex[Math.floor(r.next() * 0x10000)]!;
  const c = hex[Math.floor(r.next() * 0x10000)]!;
  const d = hex[Math.floor(r.next() * 0x10000)]!;
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${a.slice(1)}-${v.toString(16)}-${b}${c}${d}`;
}

/** Every 16-bit number as four hex digits (a hundred thousand ids take half a million), made on first use. */
let HEX4: string[] | undefined;

/**
 * Timestamps as stored (`toISOString()`) and as a dotted order's segment, from milliseconds: the day's part is made
 * once per day, the rest by arithmetic (a hundred thousand runs are several hundred thousand timestamps).
 */
function timeText() {
  const days = new Map<number, [string, string]>();
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
  const parts = (ms: number): [string, string, string, string] => {
    const day = Math.floor(ms / DAY);
    let prefix = days.get(day);
    if (!prefix) {
      const d = new Date(day * DAY).toISOString().slice(0, 10);
      prefix = [d, d.replace(/-/g, '')];
      days.set(day, prefix);
    }
    const rem = ms - day * DAY;
    const h = Math.floor(rem / HOUR);
    const m = Math.floor((rem % HOUR) / 60_000);
    const sec = Math.floor((rem % 60_000) / 1000);
    return [prefix[0], prefix[1], `${two(h)}:${two(m)}:${two(sec)}`, three(rem % 1000)];
  };
  return {
    iso(ms: number): string {
      const [d, , hms, milli] = parts(ms);
      return `${d}T${hms}.${milli}Z`;
    },
    /** The dotted-order segment of a run starting then (microseconds: the milliseconds and 000). */
    compact(ms: number): string {
      const [, d, hms, milli] = parts(ms);
      return `${d}T${hms.replace(/:/g, '')}${milli}000Z`;
    },
  };
}
/** A positive factor around 1 (a log-normal-ish spread of latencies). */
const spread = (r: Rng) => Math.exp((r.next() + r.next() + r.next() - 1.5) * 0.6);

/** A text as an SQL literal. */
const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

const RUN_COLUMNS = [
  'id', 'tenant_id', 'session_id', 'trace_id', 'parent_run_id', 'dotted_order', 'name', 'run_type', 'start_time', 'end_time',
  'inputs', 'outputs', 'error', 'extra', 'events', 'tags', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'is_stub',
  'received_at', 'status', 'latency', 'first_token', 'total_cost', 'prompt_cost', 'completion_cost',
];

/** Writes `demo-production` unless the workspace has it already. Returns the number of runs written. */
export function seedProduction(ctx: Ctx, tenant: Tenant, now: number): number {
  if (ctx.st.one('SELECT 1 FROM sessions WHERE tenant_id = ? AND name = ?', tenant.id, PRODUCTION_PROJECT)) return 0;
  const r = rng(2030);
  const anchor = productionAnchor(now);
  const windowStart = anchor - DAYS * DAY;
  const minuteOf = rhythm();
  const received = new Date(now).toISOString();
  const insertFeedback = ctx.db.prepare(
    `INSERT INTO feedback (id, tenant_id, run_id, session_id, trace_id, key, score, value, comment, feedback_source, created_at, modified_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)`,
  );
  const userSource = JSON.stringify({ type: 'app', metadata: {} });
  const evaluatorSource = JSON.stringify({ type: 'model', metadata: { evaluator: 'correctness-judge' } });
  const judged = 'LLM judge: answer checked against the help-center article.';
  // The texts many runs share, made once.
  const questionJson = QUESTIONS.map((q) => [JSON.stringify({ question: q }), JSON.stringify({ messages: [{ role: 'user', content: q }] }), JSON.stringify({ query: q })] as const);
  const modelMeta = (m: (typeof MODELS)[number]) => ({ ls_provider: m.provider, ls_model_name: m.name, model: m.name });
  const llmExtra = new Map(MODELS.map((m) => [m, JSON.stringify({ metadata: modelMeta(m) })]));
  const rootExtra = new Map(MODELS.map((m) => [m, ['1.4.0', '1.5.0'].map((v) => JSON.stringify({ metadata: { ...modelMeta(m), app_version: v } }))]));
  const toolExtra = JSON.stringify({ metadata: {} });
  const tagSets = [['prod'], ['prod', 'canary'], ['beta']].map((t) => JSON.stringify(t));
  const answered = JSON.stringify({ answer: 'Answered.' });
  const toolOut = JSON.stringify({ result: 'ok' });
  const { iso, compact } = timeText();
  let written = 0;

  ctx.st.tx(() => {
    // A bulk load: the run indexes are dropped and made again after the inserts (a third less time than keeping
    // them up to date row by row), in the same transaction.
    const indexes = ctx.st.all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs' AND sql IS NOT NULL");
    for (const x of indexes) ctx.db.exec(`DROP INDEX "${x.name}"`);
    const session = sessionByName(ctx, tenant, PRODUCTION_PROJECT);
    // What every run has the same (the workspace, the project, when received, not a stub) is written into the
    // statement rather than bound for each of a hundred thousand runs.
    const fixed: Record<string, string> = { tenant_id: sqlText(tenant.id), session_id: sqlText(session.id), is_stub: '0', received_at: sqlText(received) };
    const insertRun = ctx.db.prepare(`INSERT INTO runs (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map((c) => fixed[c] ?? '?').join(', ')})`);
    ctx.st.run(
      'UPDATE sessions SET description = ?, extra = ?, start_time = ? WHERE id = ?',
      'A production app over the last 30 days, for the monitoring charts (demo data).',
      JSON.stringify({ metadata: { demo: 'production', seeded_at: iso(anchor) } }),
      iso(windowStart), session.id,
    );
    const sid = session.id;
    const tid = tenant.id;
    let i = 0;
    for (let k = 0; k < DAYS; k++) {
      const dayIndex = DAYS - 1 - k;
      const dayStart = productionDayStart(anchor, dayIndex);
      const n = Math.floor(((k + 1) * PRODUCTION_TRACES) / DAYS) - Math.floor((k * PRODUCTION_TRACES) / DAYS);
      // The day's traces in time order, so they append to the time-ordered indexes.
      const starts = new Float64Array(n);
      for (let j = 0; j < n; j++) starts[j] = dayStart + minuteOf(r.next()) * 60_000 + r.int(0, 59_999);
      starts.sort();
      const slow = (LATENCY_REGRESSION.days as readonly number[]).includes(dayIndex) ? LATENCY_REGRESSION.factor : 1;
      for (let j = 0; j < n; j++, i++) {
        const start = starts[j]!;
        const hourOfDay = Math.floor((start - dayStart) / HOUR);
        const inSpike = dayIndex === ERROR_SPIKE.day && hourOfDay >= ERROR_SPIKE.fromHour && hourOfDay < ERROR_SPIKE.toHour;
        const failed = r.chance(inSpike ? ERROR_SPIKE.errorRate : BASE_ERROR_RATE);
        const error = failed ? (inSpike ? SPIKE_ERROR : r.pick(ERRORS)) : null;
        const u = r.next();
        let acc = 0;
        const model = MODELS.find((m) => (acc += m.weight) >= u) ?? MODELS[0];
        const tags = tagSets[r.chance(0.15) ? 2 : r.chance(0.06) ? 1 : 0]!;
        const [rootIn, llmIn, toolIn] = r.pick(questionJson);
        const kind = i % 3;
        const rootId = uuid7(r, start);
        const rootStart = iso(start);
        const rootDotted = `${compact(start)}${rootId}`;
        const llmName = model.provider === 'anthropic' ? 'ChatAnthropic' : 'ChatOpenAI';

        // The LLM call: its latency, tokens, cost, and when its first token came.
        const llmOffset = kind === 0 ? 0 : r.int(5, 60);
        const llmMs = Math.max(120, Math.round(model.ms * spread(r) * slow));
        const pt = r.int(150, 2200);
        const ct = r.int(20, 650);
        const pc = Math.round(pt * model.inPrice * 1e9) / 1e9;
        const cc = Math.round(ct * model.outPrice * 1e9) / 1e9;
        const firstTokenMs = r.chance(0.7) ? Math.max(60, Math.round(llmMs * (0.15 + 0.2 * r.next()))) : null;
        const llmFailed = failed && (kind !== 1 || r.chance(0.6));
        const llmStart = start + llmOffset;
        const llmId = kind === 0 ? rootId : uuid7(r, llmStart);
        const llmStartIso = kind === 0 ? rootStart : iso(llmStart);

        if (kind !== 0) {
          const toolMs = kind === 1 ? r.int(40, 1800) : 0;
          const rootMs = llmOffset + llmMs + toolMs + r.int(5, 40);
          const name = kind === 1 ? 'support_agent' : r.chance(0.5) ? 'rag_answer' : 'summarize_ticket';
          insertRun.run(
            rootId, rootId, null, rootDotted, name, 'chain', rootStart, iso(start + rootMs), rootIn, failed ? null : answered, error,
            rootExtra.get(model)![dayIndex >= 15 ? 0 : 1], null, tags, null, null, null, failed ? 'error' : 'success', rootMs / 1000,
            null, null, null, null,
          );
        }
        insertRun.run(
          llmId, rootId, kind === 0 ? null : rootId, kind === 0 ? rootDotted : `${rootDotted}.${compact(llmStart)}${llmId}`, llmName, 'llm',
          llmStartIso, iso(llmStart + llmMs), llmIn,
          llmFailed ? null : `{"content":"Answered.","usage_metadata":{"input_tokens":${pt},"output_tokens":${ct},"total_tokens":${pt + ct},"input_cost":${pc},"output_cost":${cc}}}`,
          llmFailed ? error : null, llmExtra.get(model)!,
          firstTokenMs === null ? null : `[{"name":"new_token","time":"${iso(llmStart + firstTokenMs)}"}]`,
          kind === 0 ? tags : '[]', pt, ct, pt + ct, llmFailed ? 'error' : 'success', llmMs / 1000,
          firstTokenMs === null ? null : firstTokenMs / 1000, llmFailed ? null : pc + cc, llmFailed ? null : pc, llmFailed ? null : cc,
        );
        written += kind === 0 ? 1 : 2;
        if (kind === 1) {
          const ts = llmStart + llmMs + 2;
          const toolMs = r.int(40, 1800);
          const toolFailed = failed && !llmFailed;
          const toolId = uuid7(r, ts);
          const tsIso = iso(ts);
          insertRun.run(
            toolId, rootId, rootId, `${rootDotted}.${compact(ts)}${toolId}`, r.pick(TOOLS), 'tool', tsIso, iso(ts + toolMs), toolIn,
            toolFailed ? null : toolOut, toolFailed ? error : null, toolExtra, null, '[]', null, null, null,
            toolFailed ? 'error' : 'success', toolMs / 1000, null, null, null, null,
          );
          written++;
        }

        // Feedback on the trace's root: users now and then, the evaluator on a fifth.
        const at = iso(start + 60_000);
        if (r.chance(0.1)) {
          const score = failed || r.chance(inSpike ? 0.5 : 0.18) ? 0 : 1;
          insertFeedback.run(uuid7(r, start + 60_000), tid, rootId, sid, rootId, 'user_score', score, null, userSource, at, at);
        }
        if (r.chance(0.2)) {
          const score = failed ? 0 : Math.round(Math.min(1, Math.max(0, 0.82 - (slow > 1 ? 0.1 : 0) + (r.next() - 0.5) * 0.4)) * 100) / 100;
          insertFeedback.run(uuid7(r, start + 60_000), tid, rootId, sid, rootId, 'correctness', score, judged, evaluatorSource, at, at);
        }
      }
    }
    for (const x of indexes) ctx.db.exec(x.sql);
  });
  return written;
}
