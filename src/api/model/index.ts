export type * from './message';
export type * from './stream';
export type * from './user';
export type * from './draft';
export type * from './events';
export type * from './register';
export type * from './server-settings';
