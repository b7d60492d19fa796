import { createRoot } from 'react-dom/client';
import { startRpc } from '../../common/rpc';
import { App } from './App';

startRpc();
createRoot(document.getElementById('root')!).render(<App />);
