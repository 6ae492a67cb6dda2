/** Whether the window is phone-sized: the width at which the CSS switches to the phone layout. */
import { useEffect, useState } from 'react';

/** The same breakpoint as the stylesheets' `@media (max-width: 760px)`. */
export const PHONE_QUERY = '(max-width: 760px)';

export function isPhoneNow(): boolean {
  return window.matchMedia?.(PHONE_QUERY).matches ?? false;
}

export function useIsPhone(): boolean {
  const [isPhone, setIsPhone] = useState(isPhoneNow);
  useEffect(() => {
    const query = window.matchMedia?.(PHONE_QUERY);
    if (!query) return;
    const onChange = () => setIsPhone(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return isPhone;
}
