import { PlaygroundReady } from '../../../../src/protocol/playground';
import { mountApp } from '../../common/app';
import { App } from './App';
import './playground.css';

mountApp(PlaygroundReady, App);
