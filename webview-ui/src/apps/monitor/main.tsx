import { MonitorReady } from '../../../../src/protocol/monitor';
import { mountApp } from '../../common/app';
import { App } from './App';
import './monitor.css';

mountApp(MonitorReady, App);
