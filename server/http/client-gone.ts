import type { ServerResponse } from 'node:http';
import type { ClientGone } from '../events/types.js';

/** The ClientGone of a response: its `close` before it finished. */
export function clientGone(response: ServerResponse): ClientGone {
  return {
    watch(fn) {
      if (response.socket?.destroyed && !response.writableFinished) {
        fn();
        return () => {};
      }
      const onClose = () => {
        if (!response.writableFinished) fn();
      };
      response.once('close', onClose);
      return () => response.removeListener('close', onClose);
    },
  };
}
