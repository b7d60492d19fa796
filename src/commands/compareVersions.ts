// "Compare Versions…" (stub: to be built): choose two versions of a dataset and open the diff panel.
import type { ClientService } from '../auth/clientService';
import type { PanelFrame } from '../webviews/panels';

export async function compareVersions(_clients: ClientService, _panels: PanelFrame, _node: unknown): Promise<void> {
  throw new Error('Compare Versions… is not built yet.');
}
