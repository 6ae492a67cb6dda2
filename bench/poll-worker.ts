/**
 * The child process of bench/pollers.ts: for each batch of requests it is sent, it sends them
 * all at once and answers with the time each was answered; it exits when its parent
 * disconnects, closing every socket it held.
 */
import { pollAll, type PollRequest } from './pollers.js';

process.on('message', (msg: { requests: PollRequest[] }) => {
  pollAll(msg.requests).then(
    (answers) => process.send!({ answers }),
    (err: unknown) => process.send!({ error: String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
