import { DatasetDiffReady } from '../../../../src/protocol/datasetDiff';
import { mountApp } from '../../common/app';

mountApp(DatasetDiffReady, () => <main className="lsw-page">To be built.</main>);
