/** This page's name among the tabs of the browser (the outbox's owner, queue sharing). */
export const THIS_TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
