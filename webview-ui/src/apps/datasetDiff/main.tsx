import { DatasetDiffReady } from '../../../../src/protocol/datasetDiff';
import { mountApp } from '../../common/app';
import { App } from './App';
import './datasetDiff.css';

mountApp(DatasetDiffReady, App);
