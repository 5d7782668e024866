export { startNode, freePort } from './node-process.js';
export type { NodeHandle, StartOptions } from './node-process.js';
