import { TraceReady } from '../../../../src/protocol/trace';
import { mountApp } from '../../common/app';
import { App } from './App';
import './trace.css';

mountApp(TraceReady, App);
