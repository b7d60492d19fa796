// Why a trace, thread or queue could not be shown, with Retry: the app's reload request, whose answer replaces
// the app's state.
import { useState } from 'react';
import type * as z from 'zod/mini';
import type { RequestType } from '../../../../src/protocol/messages';
import type { LoadProblem } from '../../../../src/protocol/trace';
import { useAppState, useRequest } from '../app';
import { Banner, Button } from '../components';

export function ProblemView<R extends z.ZodMiniType>({ problem, reload, className }: { problem: LoadProblem; reload: RequestType<z.ZodMiniObject<Record<string, never>>, R>; className: string }) {
  const [, setState] = useAppState<z.infer<R>>();
  const request = useRequest(reload);
  const [error, setError] = useState<string>();
  async function retry() {
    setError(undefined);
    const result = await request.run({});
    if (result.ok) setState(() => result.value);
    else if (result.error.code !== 'cancelled') setError(result.error.message);
  }
  return (
    <main className={className} data-testid="problem">
      <Banner tone={problem.code === 'notSignedIn' ? 'warning' : 'error'}>{problem.message}</Banner>
      {error !== undefined && <Banner tone="error">{error}</Banner>}
      <div>
        <Button onClick={() => void retry()} disabled={request.pending} data-testid="retry">
          Retry
        </Button>
      </div>
    </main>
  );
}
