import { ExampleEditorReady } from '../../../../src/protocol/exampleEditor';
import { mountApp } from '../../common/app';
import { App } from './App';
import './exampleEditor.css';

mountApp(ExampleEditorReady, App);
