export * from './narrow';
export * from './api-narrow';
export * from './contains';
export * from './url';
