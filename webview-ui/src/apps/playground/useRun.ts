// The life of a playground run on the page: started through the host, its answer streamed in from
// notifications (pieces that arrive before the host named the run are held for it), stopped, and ended into the
// stored list of runs — surviving a hidden tab or a reload, where the host's state says how a run ended.
import { useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { RunDelta, RunFinished, RunPrompt, StopRun, type PlaygroundState } from '../../../../src/protocol/playground';
import type { ParamsOf } from '../../../../src/protocol/messages';
import { useNotification, useRequest } from '../../common/app';
import { useStoredState } from '../../common/hooks/useStoredState';
import { KEPT_ANSWER, MAX_RUNS, type ActiveRun, type RunRecord } from './model';

type Finished = z.infer<typeof RunFinished.params>;
type Early = { deltas: Map<string, string>; finished: Map<string, Finished> };
const noEarly = (): Early => ({ deltas: new Map(), finished: new Map() });

export interface RunHost {
  /** The host's state as the page has it (what a reload restores from), and how to change it. */
  state: PlaygroundState;
  setState: (update: (prev: PlaygroundState) => PlaygroundState) => void;
  /** The follow-up being written: a turn that did not make it into the conversation goes back there. */
  message: string;
  setMessage: (text: string) => void;
  /** A run the host refused to start (a missing value, no endpoint). */
  onRefused: (text: string) => void;
  /** A stop that failed. */
  onError: (text: string) => void;
  /** What the page should say about a run that ended out of its sight. */
  onNotice: (text: string) => void;
}

export function useRun({ state, setState, message, setMessage, onRefused, onError, onNotice }: RunHost) {
  const [runs, setRuns] = useStoredState<RunRecord[]>('runs', []);
  // A run still waiting for its id when the page went away is gone: only one with an id can still be stopped.
  const [active, setActiveState] = useStoredState<ActiveRun | null>('active', null, (a) => (a?.runId ? a : null));
  // The run in flight as the notification handlers must see it: at once, not at the next render.
  const activeRef = useRef(active);
  const setActive = (a: ActiveRun | null) => {
    activeRef.current = a;
    setActiveState(a);
  };
  /** The answer so far of the run in flight. */
  const [live, setLive] = useState('');
  /** Pieces that arrived before the host told us the run's id. */
  const early = useRef<Early>(noEarly());
  const runPrompt = useRequest(RunPrompt);
  const stopRun = useRequest(StopRun);

  // Shown again after being hidden (or after a reload): the run this page was showing may have ended meanwhile,
  // when no notification could reach it. The host's state says how it ended, or that it is still going.
  useEffect(() => {
    const a = activeRef.current;
    if (!a?.runId) return;
    const ended = state.finished.find((f) => f.runId === a.runId);
    if (ended) finish(a, ended);
    else if (!state.running.includes(a.runId)) {
      setActive(null);
      setLive('');
      onNotice('The run ended while this panel was closed.');
    }
    // Only the state the page starts with: later states come from notifications, which the handlers below follow.
  }, []);

  useNotification(RunDelta, ({ runId, text }) => {
    const a = activeRef.current;
    if (!a) return;
    if (a.runId === null) {
      early.current.deltas.set(runId, (early.current.deltas.get(runId) ?? '') + text);
      return;
    }
    if (runId === a.runId) setLive((prev) => prev + text);
  });

  useNotification(RunFinished, (f) => {
    const a = activeRef.current;
    if (!a) return;
    if (a.runId === null) {
      early.current.finished.set(f.runId, f);
      return;
    }
    if (f.runId === a.runId) finish(a, f);
  });

  function finish(a: ActiveRun, f: Finished) {
    setActive(null);
    setLive('');
    setState((prev) => ({ ...prev, session: f.session, pendingTraces: f.trace.pending }));
    const record: RunRecord = {
      runId: f.runId,
      outcome: f.outcome,
      answer: f.answer.slice(0, KEPT_ANSWER),
      truncated: f.answer.length > KEPT_ANSWER,
      usage: f.usage,
      latencyMs: f.latencyMs,
      trace: f.trace,
      error: f.error,
      hint: f.hint,
      at: Date.now(),
      chat: a.chat,
      sessionId: f.session.id,
      followUp: a.followUp,
    };
    setRuns((prev) => [record, ...prev.filter((r) => r.runId !== f.runId)].slice(0, MAX_RUNS));
    // A follow-up that did not become a turn of the conversation goes back in its box: nothing typed is lost.
    if (a.followUp !== null && f.outcome !== 'done' && !message && !f.session.turns.some((t) => t.role === 'human' && t.content === a.followUp)) {
      setMessage(a.followUp);
    }
  }

  /** Starts a run (the caller checked that none is going: isRunning()); `followUp` is the chat turn it sends. */
  async function start(params: ParamsOf<typeof RunPrompt>, followUp: string | null) {
    const mine: ActiveRun = { runId: null, chat: params.chat, followUp };
    early.current = noEarly();
    setActive(mine);
    setLive('');
    const r = await runPrompt.run(params);
    // Read again after the wait (TypeScript would keep the narrowing from before it).
    if ((activeRef.current as ActiveRun | null) !== mine) return;
    if (!r.ok) {
      setActive(null);
      if (r.error.code !== 'cancelled') onRefused(r.error.message);
      return;
    }
    const started: ActiveRun = { ...mine, runId: r.value.runId };
    setActive(started);
    if (followUp !== null) setMessage('');
    const { deltas, finished } = early.current;
    early.current = noEarly();
    const text = deltas.get(started.runId!);
    if (text) setLive(text);
    const f = finished.get(started.runId!);
    if (f) finish(started, f);
  }

  async function stop() {
    const a = activeRef.current;
    if (!a?.runId) return;
    const r = await stopRun.run({ runId: a.runId });
    if (!r.ok) {
      if (r.error.code !== 'cancelled') onError(`Could not stop the run: ${r.error.message}`);
      return;
    }
    // The host no longer knows the run: it ended while this panel could not hear it (hidden or reloaded).
    if (!r.value.stopped && activeRef.current?.runId === a.runId) {
      setActive(null);
      setLive('');
      onNotice('That run had already ended; its answer did not reach this panel. Its trace has it.');
    }
  }

  return { runs, active, live, isRunning: () => activeRef.current !== null, start, stop, stopping: stopRun.pending };
}
