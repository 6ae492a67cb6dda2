/**
 * The child process of bench/senders.ts: sends the plan it is given, answers with the time it
 * took, and exits when its parent disconnects.
 */
import { sendAll, type SendPlan } from './senders.js';

process.on('message', (msg: { plan: SendPlan }) => {
  sendAll(msg.plan).then(
    (result) => process.send!(result),
    (err: unknown) => process.send!({ error: String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
