import { PromptCommitReady } from '../../../../src/protocol/promptCommit';
import { mountApp } from '../../common/app';
import { App } from './App';
import './promptCommit.css';

mountApp(PromptCommitReady, App);
