// Loads a TypeScript worker under tsx when the app itself runs from sources (npm start, tests).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
