// The trace viewer: one trace, a thread, or why neither could be shown (with Retry).
import { Reload, ShowAll, type TraceState } from '../../../../src/protocol/trace';
import { useAppState } from '../../common/app';
import { ShowAllProvider } from '../../common/run/payload';
import { ProblemView } from '../../common/run/ProblemView';
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
  if (state.kind === 'problem') return <ProblemView problem={state.problem} reload={Reload} className="tv-page tv-problem" />;
  if (state.kind === 'thread') return <ThreadView thread={state.thread} />;
  return <TraceView key={state.trace.header.traceId} trace={state.trace} initialRunId={state.selectedRunId} />;
}

