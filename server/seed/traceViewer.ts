// The trace viewer's demo: an agent trace, a three-turn thread, a trace of 3,000 runs.
import type { Ctx, Tenant } from '../context';
import { newId } from '../ids';
import { storeBlobs } from '../store/examples';
import { ingestCreate, type AttachmentRef as RunAttachmentRef, type RunPayload } from '../store/runs';
import { sessionByName } from '../store/sessions';
import { demoPng } from './files';
import { rng } from './random';
import { dotted } from './traces';

/** The thread of the demo-assistant project (three turns sharing metadata.thread_id). */
export const DEMO_THREAD_ID = 'demo-thread-paris-trip';
/** How many runs the one trace of demo-large-trace has. */
export const LARGE_TRACE_RUNS = 3000;
/** The image attached to the agent trace's chart run. */
export const DEMO_CHART_NAME = 'forecast.png';

/** A 48×32 bar chart of four days' temperatures: made here, so every demo database has the same bytes. */
export function demoChartPng(): Buffer {
  const bars = [14, 11, 17, 20];
  return demoPng(48, 32, (x, y) => {
    const bar = Math.floor(x / 12);
    const inBar = x % 12 >= 2 && x % 12 < 10;
    if (inBar && 31 - y < bars[bar] * 1.4) return bar === 1 ? [70, 110, 200] : [230, 140, 40];
    return y === 31 ? [60, 60, 60] : [250, 250, 250];
  });
}

/** One run written for the demo: ids, times, trace and dotted order given, so nothing is looked up. */
interface DemoRun {
  id: string;
  dotted: string;
  trace: string;
}

function demoRun(
  ctx: Ctx, tenant: Tenant, sessionId: string, parent: DemoRun | null, startMs: number, endMs: number,
  p: Omit<RunPayload, 'id' | 'start_time' | 'end_time' | 'trace_id' | 'parent_run_id' | 'dotted_order' | 'session_id'>,
  attachments?: Record<string, RunAttachmentRef>,
): DemoRun {
  const id = newId();
  const start = new Date(startMs).toISOString();
  const run = { id, dotted: dotted(parent?.dotted ?? null, start, id), trace: parent?.trace ?? id };
  ingestCreate(ctx, tenant, {
    ...p, id, start_time: start, end_time: new Date(endMs).toISOString(), session_id: sessionId,
    trace_id: run.trace, parent_run_id: parent?.id ?? null, dotted_order: run.dotted,
  }, attachments);
  return run;
}

/** An llm run's usage as LangSmith takes it (tokens and the costs the integration reports), in its metadata. */
function usage(model: string, input: number, output: number, extraMetadata: Record<string, unknown> = {}) {
  // gpt-4o-mini list prices per token: $0.15 / 1M input, $0.60 / 1M output.
  const inputCost = Math.round(input * 0.15) / 1e6;
  const outputCost = Math.round(output * 0.6) / 1e6;
  return {
    prompt_tokens: input, completion_tokens: output, total_tokens: input + output,
    extra: {
      invocation_params: { model, temperature: 0.2 },
      metadata: {
        ...extraMetadata, ls_provider: 'openai', ls_model_name: model,
        usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output, input_cost: inputCost, output_cost: outputCost, total_cost: inputCost + outputCost },
      },
    },
  };
}

const PYTHON_STACK = [
  'Traceback (most recent call last):',
  '  File "/app/agent/tools/events.py", line 42, in get_events',
  '    resp = session.get(f"{EVENTS_API}/search", params={"city": city, "date": date}, timeout=5)',
  '  File "/usr/local/lib/python3.12/site-packages/requests/sessions.py", line 602, in get',
  '    return self.request("GET", url, **kwargs)',
  '  File "/usr/local/lib/python3.12/site-packages/requests/adapters.py", line 700, in send',
  '    raise ConnectionError(e, request=request)',
  "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='events.example.com', port=443): Max retries exceeded with url: /search?city=Paris (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))",
].join('\n');

/** The demo-assistant project: an agent trace with chat messages, tools, a retriever, an error and an image; a thread. */
function seedAssistant(ctx: Ctx, tenant: Tenant, now: number): void {
  const project = sessionByName(ctx, tenant, 'demo-assistant');
  ctx.st.run('UPDATE sessions SET description = ? WHERE id = ?', 'A travel assistant: an agent trace with tools and a three-turn conversation (demo data).', project.id);
  const w = (parent: DemoRun | null, start: number, end: number, p: Parameters<typeof demoRun>[6], att?: Record<string, RunAttachmentRef>) =>
    demoRun(ctx, tenant, project.id, parent, start, end, p, att);

  // The agent: plan with a tool call, call the tools (one fails), retrieve packing advice, draw a chart, answer.
  const t0 = now - 2 * 3600_000;
  const question = "I'm going to Paris this weekend. What will the weather be like, and what should I pack?";
  const system = { role: 'system', content: 'You are a travel assistant. Use the tools for facts; answer briefly.' };
  const user = { role: 'user', content: question };
  const toolCall = { id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  const eventsCall = { id: 'call_events_1', type: 'function', function: { name: 'get_events', arguments: '{"city":"Paris","date":"this weekend"}' } };
  const weather = { city: 'Paris', forecast: [{ day: 'Sat', high_c: 14, conditions: 'light rain' }, { day: 'Sun', high_c: 11, conditions: 'showers' }] };
  const answer = 'Expect 11–14 °C with showers on both days. Pack a waterproof jacket, an umbrella, layers and shoes that cope with rain. I could not look up events: the events service did not answer.';
  const docs = [
    { page_content: 'For 10–15 °C and rain: a waterproof shell, a warm mid-layer, quick-drying trousers, waterproof shoes.', metadata: { source: 'guides/packing/rain.md' } },
    { page_content: 'Paris in spring: mornings are cool; museums are busiest on weekends; carry a compact umbrella.', metadata: { source: 'guides/cities/paris.md' } },
  ];
  const root = w(null, t0, t0 + 9_400, {
    name: 'TravelAgent', run_type: 'chain', inputs: { messages: [user] }, outputs: { messages: [user, { role: 'assistant', content: answer }] },
    error: 'ToolException: get_events failed: ConnectionError (see the get_events run)', tags: ['agent', 'demo'],
    extra: { metadata: { user_id: 'u-2207', app_version: '1.4.0' } },
  });
  w(root, t0 + 20, t0 + 1_820, {
    name: 'ChatOpenAI', run_type: 'llm', inputs: { messages: [system, user] },
    outputs: { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [toolCall, eventsCall] } }] },
    ...usage('gpt-4o-mini', 412, 58),
  });
  w(root, t0 + 1_830, t0 + 2_310, { name: 'get_weather', run_type: 'tool', inputs: { city: 'Paris' }, outputs: weather, extra: { metadata: { tool_call_id: 'call_weather_1' } } });
  w(root, t0 + 1_835, t0 + 6_900, {
    name: 'get_events', run_type: 'tool', inputs: { city: 'Paris', date: 'this weekend' }, outputs: null,
    error: `ConnectionError: could not reach the events service\n\n${PYTHON_STACK}`, extra: { metadata: { tool_call_id: 'call_events_1', retries: 3 } },
  });
  w(root, t0 + 6_910, t0 + 7_150, { name: 'PackingGuideRetriever', run_type: 'retriever', inputs: { query: 'what to pack for 11-14 C and rain in Paris' }, outputs: { documents: docs } });
  const chart = storeBlobs(ctx, { [DEMO_CHART_NAME]: { mime: 'image/png', data: demoChartPng() } });
  w(root, t0 + 7_160, t0 + 7_420, {
    name: 'render_forecast_chart', run_type: 'tool', inputs: { forecast: weather.forecast }, outputs: { image: `attachment:${DEMO_CHART_NAME}`, width: 48, height: 32 },
  }, chart);
  const toolMessages = [
    { role: 'tool', tool_call_id: 'call_weather_1', content: JSON.stringify(weather) },
    { role: 'tool', tool_call_id: 'call_events_1', content: 'Error: ConnectionError: could not reach the events service' },
  ];
  const answerStart = t0 + 7_430;
  w(root, answerStart, t0 + 9_380, {
    name: 'ChatOpenAI', run_type: 'llm',
    inputs: { messages: [system, user, { role: 'assistant', content: null, tool_calls: [toolCall, eventsCall] }, ...toolMessages, { role: 'system', content: `Context:\n${docs.map((d) => d.page_content).join('\n')}` }] },
    outputs: { generations: [[{ text: answer, type: 'ChatGeneration', generation_info: { finish_reason: 'stop' }, message: { role: 'assistant', content: answer } }]] },
    events: [{ name: 'start', time: new Date(answerStart).toISOString() }, { name: 'new_token', time: new Date(answerStart + 640).toISOString(), kwargs: { token: 'Expect' } }, { name: 'end', time: new Date(t0 + 9_380).toISOString() }],
    ...usage('gpt-4o-mini', 986, 71),
  });

  // The conversation: three turns a minute apart, each a question and its answer as chat messages.
  const turns = [
    ['Hi! Is Paris worth visiting in March?', 'Yes: fewer crowds, cool weather (8–14 °C) and the first spring blossoms.'],
    ['Which museums should I book ahead?', 'Book the Louvre and the Musée d’Orsay online; the Orangerie is usually fine on the day.'],
    ['And a good area to stay?', 'Le Marais or Saint-Germain: central, walkable and close to the metro.'],
  ];
  const threadStart = now - 40 * 60_000;
  turns.forEach(([q, a], k) => {
    const start = threadStart + k * 60_000;
    const metadata = { thread_id: DEMO_THREAD_ID, user_id: 'u-2207' };
    const history = turns.slice(0, k).flatMap(([pq, pa]) => [{ role: 'user', content: pq }, { role: 'assistant', content: pa }]);
    const turn = w(null, start, start + 2_100 + k * 300, {
      name: 'ChatTurn', run_type: 'chain', inputs: { messages: [{ role: 'user', content: q }] }, outputs: { messages: [{ role: 'assistant', content: a }] },
      extra: { metadata }, tags: ['chat'],
    });
    const tokensIn = 180 + k * 60;
    w(turn, start + 15, start + 2_050 + k * 300, {
      name: 'ChatOpenAI', run_type: 'llm', inputs: { messages: [system, ...history, { role: 'user', content: q }] },
      outputs: { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: a } }] },
      ...usage('gpt-4o-mini', tokensIn, 40 + k * 5, metadata),
    });
  });
}

/**
 * The demo-large-trace project: one trace of exactly LARGE_TRACE_RUNS runs — a root chain over sections, each a
 * chain of steps (retrievers, llm calls with nested tool calls, parsers) several levels deep, run one after another.
 */
function seedLargeTrace(ctx: Ctx, tenant: Tenant, now: number): void {
  const r = rng(3000);
  const project = sessionByName(ctx, tenant, 'demo-large-trace');
  ctx.st.run('UPDATE sessions SET description = ? WHERE id = ?', `One trace of ${LARGE_TRACE_RUNS} runs, for the trace viewer (demo data).`, project.id);
  let budget = LARGE_TRACE_RUNS - 1;
  let clock = now - 3 * 3600_000;
  const rootStart = clock;
  const root = { id: newId(), dotted: '', trace: '' };
  root.dotted = dotted(null, new Date(rootStart).toISOString(), root.id);
  root.trace = root.id;
  /** A run whose children `body` writes; the run itself is written after them, when its end is known. */
  const node = (parent: DemoRun, name: string, runType: string, inputs: object, body?: (self: DemoRun) => object | void): void => {
    budget--;
    const id = newId();
    const start = (clock += r.int(1, 4));
    const self = { id, dotted: dotted(parent.dotted, new Date(start).toISOString(), id), trace: parent.trace };
    const outputs = body?.(self) ?? { ok: true };
    clock += r.int(2, runType === 'llm' ? 40 : 12);
    const llm = runType === 'llm' ? usage('gpt-4o-mini', r.int(200, 1500), r.int(10, 200)) : {};
    ingestCreate(ctx, tenant, {
      id, name, run_type: runType, inputs, outputs, start_time: new Date(start).toISOString(), end_time: new Date(clock).toISOString(),
      session_id: project.id, trace_id: self.trace, parent_run_id: parent.id, dotted_order: self.dotted, ...llm,
    });
  };
  for (let s = 0; budget > 0; s++) {
    node(root, `section_${s}`, 'chain', { section: s }, (section) => {
      if (budget > 0) node(section, 'retrieve_context', 'retriever', { query: `section ${s}` }, () => ({ documents: [{ page_content: `Context for section ${s}.`, metadata: { source: `docs/${s}.md` } }] }));
      for (let step = 0; step < 5 && budget > 0; step++) {
        node(section, `step_${s}_${step}`, 'chain', { step }, (stepRun) => {
          if (budget > 0) {
            node(stepRun, 'ChatOpenAI', 'llm', { messages: [{ role: 'user', content: `Work on step ${step} of section ${s}.` }] }, (llm) => {
              // Some llm calls make tool calls, written as the llm's children (three and four levels down).
              const calls = r.chance(0.5) ? r.int(1, 2) : 0;
              for (let c = 0; c < calls && budget > 0; c++) {
                node(llm, 'lookup', 'tool', { key: `${s}.${step}.${c}` }, (tool) => {
                  if (budget > 0 && r.chance(0.3)) node(tool, 'http_get', 'tool', { url: `https://api.example.com/${s}/${step}/${c}` });
                  return { value: r.int(0, 1000) };
                });
              }
              return { choices: [{ message: { role: 'assistant', content: `Done with step ${step}.` } }] };
            });
          }
          if (budget > 0) node(stepRun, 'OutputParser', 'parser', { text: `Done with step ${step}.` }, () => ({ output: `step ${step} ok` }));
          return { done: true };
        });
      }
      return { section: s, done: true };
    });
  }
  ingestCreate(ctx, tenant, {
    id: root.id, name: 'BatchPipeline', run_type: 'chain', inputs: { documents: 'all' }, outputs: { processed: true },
    start_time: new Date(rootStart).toISOString(), end_time: new Date(clock + 5).toISOString(), session_id: project.id,
    trace_id: root.id, parent_run_id: null, dotted_order: root.dotted, tags: ['large'],
  });
}

/** The projects the trace viewer is shown with (new projects: the older demo projects stay as they were). */
export function seedTraceViewerDemo(ctx: Ctx, tenant: Tenant, now: number): void {
  seedAssistant(ctx, tenant, now);
  seedLargeTrace(ctx, tenant, now);
}
