// The annotation review page: a queue's items one after another, or why the queue could not be read (with Retry).
import { Reload, ShowAll, type ReviewState } from '../../../../src/protocol/review';
import { useAppState } from '../../common/app';
import { ShowAllProvider } from '../../common/run/payload';
import { ProblemView } from '../../common/run/ProblemView';
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
  if (state.kind === 'problem') return <ProblemView problem={state.problem} reload={Reload} className="rv-page rv-problem" />;
  return <ReviewPage state={state} />;
}

