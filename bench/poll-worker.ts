/**
 * The child process of bench/pollers.ts: for each batch of requests it is sent, it sends them
 * all at once and answers with the time each was answered; it exits when its parent
 * disconnects, closing every socket it held.
 */
import { H2Polls, RawPolls, type PollRequest } from './pollers.js';

/** HTTP/1.1 connections of their own, or a load balancer's HTTP/2 streams (argument `h2`). */
const polls = process.argv[2] === 'h2' ? new H2Polls() : new RawPolls();

process.on('message', (msg: { requests: PollRequest[] }) => {
  polls.pollAll(msg.requests).then(
    (answers) => process.send!({ answers }),
    (err: unknown) => process.send!({ error: String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
