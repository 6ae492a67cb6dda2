import { createElement, lazy, useState, type ComponentType } from 'react';

/**
 * A component in a chunk of its own, like React's `lazy`, that draws at once when its chunk has
 * already loaded (started early with `preload`): `lazy` suspends at its first drawing whatever
 * the state of its chunk, and the page waits a turn of the event loop and a second drawing for
 * it. Each place it is drawn keeps the way it started, so that it is never drawn anew because
 * the chunk arrived meanwhile.
 */
export function loadable<P extends object>(
  load: () => Promise<ComponentType<P>>,
): { Component: ComponentType<P>; preload: () => Promise<ComponentType<P>> } {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = null; // offline: tried again at the next use
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Component(props: P) {
    const [direct] = useState(() => loaded);
    return createElement((direct ?? Lazy) as ComponentType<P>, props);
  }
  return { Component, preload };
}
