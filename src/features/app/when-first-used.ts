/**
 * Runs `work` once the person first does something on the page (moves the pointer, touches,
 * scrolls or presses a key), when the browser is next idle. For code that only a person's action
 * needs: fetched ahead of that action, but not while a page nobody touches is still loading.
 * Answers a function that cancels it.
 */
const FIRST_INPUT = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'keydown'] as const;
const LISTENING = { capture: true, passive: true } as const;

export function whenFirstUsed(work: () => void): () => void {
  let cancelWork = () => {};
  const stopListening = () => {
    for (const type of FIRST_INPUT) window.removeEventListener(type, onInput, LISTENING);
  };
  function onInput() {
    stopListening();
    if (typeof window.requestIdleCallback === 'function') {
      const idle = window.requestIdleCallback(work, { timeout: 2000 });
      cancelWork = () => window.cancelIdleCallback(idle);
    } else {
      const timer = window.setTimeout(work, 200);
      cancelWork = () => window.clearTimeout(timer);
    }
  }
  for (const type of FIRST_INPUT) window.addEventListener(type, onInput, LISTENING);
  return () => {
    stopListening();
    cancelWork();
  };
}
