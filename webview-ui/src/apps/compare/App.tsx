// The experiment comparison page: the experiments side by side, or why they could not be read (with Retry).
import { Reload, type CompareState } from '../../../../src/protocol/compare';
import { useAppState } from '../../common/app';
import { ProblemView } from '../../common/run/ProblemView';
import { ComparePage } from './ComparePage';

export function App() {
  const [state] = useAppState<CompareState>();
  if (state.kind === 'problem') return <ProblemView problem={state.problem} reload={Reload} className="cmp-page cmp-problem" />;
  return <ComparePage state={state} />;
}
