import { QueueSettingsReady } from '../../../../src/protocol/queueSettings';
import { mountApp } from '../../common/app';
import { App } from './App';
import './queueSettings.css';

mountApp(QueueSettingsReady, App);
