import './console.css';
import { ConsoleApp } from './console-app';

const root = document.getElementById('console');
if (root) new ConsoleApp(root).start();
