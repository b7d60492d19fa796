import { RunsReady } from '../../../../src/protocol/runs';
import { mountApp } from '../../common/app';
import { App } from './App';
import './runs.css';

mountApp(RunsReady, App);
