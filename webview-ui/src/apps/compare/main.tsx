import { CompareReady } from '../../../../src/protocol/compare';
import { mountApp } from '../../common/app';
import { App } from './App';
import './compare.css';

mountApp(CompareReady, App);
