import { HelloReady } from '../../../../src/protocol/hello';
import { mountApp } from '../../common/app';
import { App } from './App';

mountApp(HelloReady, App);
