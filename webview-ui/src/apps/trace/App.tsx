// The trace viewer: one trace, a thread, or why neither could be shown (with Retry).
import { useState } from 'react';
import { Reload, ShowAll, type LoadProblem, type TraceState } from '../../../../src/protocol/trace';
import { useAppState, useRequest } from '../../common/app';
import { Banner, Button } from '../../common/components';
import { ShowAllProvider } from '../../common/run/payload';
import { ThreadView } from './ThreadView';
import { TraceView } from './TraceView';

export function App() {
  return (
    <ShowAllProvider request={ShowAll}>
      <Content />
    </ShowAllProvider>
  );
}

function Content() {
  const [state] = useAppState<TraceState>();
  if (state.kind === 'problem') return <ProblemView problem={state.problem} />;
  if (state.kind === 'thread') return <ThreadView thread={state.thread} />;
  return <TraceView key={state.trace.header.traceId} trace={state.trace} initialRunId={state.selectedRunId} />;
}

function ProblemView({ problem }: { problem: LoadProblem }) {
  const [, setState] = useAppState<TraceState>();
  const reload = useRequest(Reload);
  const [error, setError] = useState<string>();
  async function retry() {
    setError(undefined);
    const result = await reload.run({});
    if (result.ok) setState(() => result.value);
    else if (result.error.code !== 'cancelled') setError(result.error.message);
  }
  return (
    <main className="tv-page tv-problem" data-testid="problem">
      <Banner tone={problem.code === 'notSignedIn' ? 'warning' : 'error'}>{problem.message}</Banner>
      {error !== undefined && <Banner tone="error">{error}</Banner>}
      <div>
        <Button onClick={() => void retry()} disabled={reload.pending} data-testid="retry">
          Retry
        </Button>
      </div>
    </main>
  );
}
