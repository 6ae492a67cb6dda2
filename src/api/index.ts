export * from './connection';
export * from './errors';
export * from './routes/account';
export * from './routes/events';
export * from './routes/messages';
export * from './routes/streams';
export * from './routes/users';
export * from './routes/drafts';
export { parseEvent, type ParsedEvent, type UnexpectedEvent } from './parse-event';
