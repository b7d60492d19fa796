import { ReviewReady } from '../../../../src/protocol/review';
import { mountApp } from '../../common/app';
import { App } from './App';
import './review.css';

mountApp(ReviewReady, App);
