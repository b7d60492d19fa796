// The annotation review page: a queue's items one after another, or why the queue could not be read (with Retry).
import { useState } from 'react';
import { Reload, ShowAll, type ReviewState } from '../../../../src/protocol/review';
import type { LoadProblem } from '../../../../src/protocol/trace';
import { useAppState, useRequest } from '../../common/app';
import { Banner, Button } from '../../common/components';
import { ShowAllProvider } from '../../common/run/payload';
import { ReviewPage } from './ReviewPage';

export function App() {
  return (
    <ShowAllProvider request={ShowAll}>
      <Content />
    </ShowAllProvider>
  );
}

function Content() {
  const [state] = useAppState<ReviewState>();
  if (state.kind === 'problem') return <ProblemView problem={state.problem} />;
  return <ReviewPage state={state} />;
}

function ProblemView({ problem }: { problem: LoadProblem }) {
  const [, setState] = useAppState<ReviewState>();
  const reload = useRequest(Reload);
  const [error, setError] = useState<string>();
  async function retry() {
    setError(undefined);
    const result = await reload.run({});
    if (result.ok) setState(() => result.value);
    else if (result.error.code !== 'cancelled') setError(result.error.message);
  }
  return (
    <main className="rv-page rv-problem" data-testid="problem">
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
