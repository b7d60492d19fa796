// The runs page of a project, or why the project could not be read (with Retry).
import { Reload, type RunsState } from '../../../../src/protocol/runs';
import { useAppState } from '../../common/app';
import { ProblemView } from '../../common/run/ProblemView';
import { RunsPage } from './RunsPage';

export function App() {
  const [state] = useAppState<RunsState>();
  if (state.kind === 'problem') return <ProblemView problem={state.problem} reload={Reload} className="rn-page rn-problem" />;
  return <RunsPage state={state} />;
}
