// A project's monitoring charts, or why they could not be read (with Retry).
import { Reload, type MonitorState } from '../../../../src/protocol/monitor';
import { useAppState } from '../../common/app';
import { ProblemView } from '../../common/run/ProblemView';
import { MonitorPage } from './MonitorPage';

export function App() {
  const [state] = useAppState<MonitorState>();
  if (state.kind === 'problem') return <ProblemView problem={state.problem} reload={Reload} className="mon-page mon-problem" />;
  return <MonitorPage state={state} />;
}
