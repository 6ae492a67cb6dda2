/**
 * A link to one of the app's own addresses: an <a> whose click navigates within the app, made of
 * react-router's own hooks, so it behaves as the router's Link does (a click with a modifier key,
 * another button or on a link with a target is left to the browser). The router's Link also
 * carries the route-module prefetching of its framework mode and the route matching that needs,
 * which this app never uses and which was a third of the router's code in the first view.
 */
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  /** replaces the current history entry instead of adding one */
  replace?: boolean;
}

export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} href={href} target={target} onClick={onLinkClick} />;
}
