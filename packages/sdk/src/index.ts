export { JudgeClient, problemOf, type ClientOptions, type CallInput } from './client.js';
export { ApiProblem, Unreachable } from './problem.js';
export { EventStream, type Frame, type EventStreamOptions } from './events.js';
export { ops } from '@judge/contract';
