/** Profile cards, profiles and one's own profile settings. */
export { PersonTrigger } from './PersonTrigger';
export { PersonRow } from './PersonRow';
export { ProfileCardLayer } from './ProfileCardLayer';
